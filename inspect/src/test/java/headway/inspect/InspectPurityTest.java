package headway.inspect;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inspect module is pure: its readers take bytes and streams the caller opened, so they reach
 * no database, no Temporal, no network, no files, no clock, no randomness and no threads. That keeps
 * them testable on any bytes and safe to run inside any activity.
 */
class InspectPurityTest {

    private static JavaClasses inspect;

    @BeforeAll
    static void importInspect() {
        inspect = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("headway.inspect");
    }

    @Test
    void reachesNoDatabaseTemporalNetworkOrFiles() {
        check(noClasses()
                .that()
                .resideInAPackage("headway.inspect..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "io.temporal..", "java.net..", "java.nio.file..")
                .orShould()
                .dependOnClassesThat(fileClassesOfJavaIo())
                .because("readers take bytes or streams the caller opens"));
    }

    @Test
    void readsNoClockNoRandomnessAndStartsNoThreads() {
        check(noClasses()
                .that()
                .resideInAPackage("headway.inspect..")
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethodWhere(target(name("now")))
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Random.class)
                .orShould()
                .callMethod(Math.class, "random")
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Thread.class)
                .because("a reader's result depends on its bytes alone"));
    }

    @Test
    void theTextReadersUseLinearTimeRegularExpressions() {
        check(noClasses()
                .that()
                .resideInAnyPackage("headway.inspect.nfo..", "headway.inspect.yenc..", "headway.inspect.par2..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("java.util.regex..")
                .because("posters' text is hostile: RE2/J runs in linear time, java.util.regex can backtrack"));
    }

    private static DescribedPredicate<JavaClass> fileClassesOfJavaIo() {
        return DescribedPredicate.describe(
                "java.io.File*",
                c -> c.getPackageName().equals("java.io") && c.getSimpleName().startsWith("File"));
    }

    private static void check(ArchRule rule) {
        rule.check(inspect);
    }
}
