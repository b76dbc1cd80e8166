package headway.starter;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The CLI calls the stores of modules catalog and coordination; SQL, JDBC and the connection pool stay behind them. */
class CliArchitectureTest {

    /** The module's own main classes (Maven runs the tests in the module's directory). */
    @Test
    void cliCodeDoesNoJdbc() {
        JavaClasses cli = new ClassFileImporter().importPath(Path.of("target", "classes"));
        noClasses()
                .that()
                .resideInAPackage("headway.starter..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "com.zaxxer.hikari..", "org.flywaydb..")
                .because("SQL lives in the stores (headway.catalog, headway.coordination): the CLI calls them")
                .check(cli);
    }
}
