package db.migration;

import headway.store.MessageIdPack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A binary's message-ids become one packed value ({@link MessageIdPack}, issue 43 item 3): a bytea
 * of 6 to 24 bytes an id where the text was 36 to 64 and a tab. Java, because the packing is the
 * Java codec's and must be byte for byte what the catalog writes from now on (two encoders, one in
 * SQL, would have to agree forever). Every row is read through a cursor and written back in
 * batches; the text column is then dropped and the table rewritten, so that the rows keep nothing
 * of the text (a dropped column's bytes stay in a row until it is written again).
 */
public class V34__pack_message_ids extends BaseJavaMigration {

    private static final int BATCH = 2_000;

    private static final String READ = """
            select group_name, poster, file_name, total_parts, posted_month::text, message_ids_v33 from binaries
            """;

    private static final String WRITE = """
            update binaries b set message_ids = k.ids
            from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::bytea[]) as k(g, p, f, t, m, ids)
            where b.group_name = k.g and b.poster = k.p and b.file_name = k.f and b.total_parts = k.t
              and b.posted_month = k.m::date
            """;

    @Override
    public void migrate(Context context) throws Exception {
        Connection conn = context.getConnection();
        try (Statement st = conn.createStatement()) {
            st.execute("alter table binaries rename column message_ids to message_ids_v33");
            st.execute("alter table binaries add column message_ids bytea");
        }
        try (PreparedStatement read = conn.prepareStatement(READ);
                PreparedStatement write = conn.prepareStatement(WRITE)) {
            read.setFetchSize(BATCH);
            List<Object[]> rows = new ArrayList<>(BATCH);
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    List<String> ids = Arrays.asList(rs.getString(6).split("\t", -1));
                    rows.add(new Object[] {
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getInt(4),
                        rs.getString(5),
                        MessageIdPack.encode(ids)
                    });
                    if (rows.size() == BATCH) {
                        write(conn, write, rows);
                    }
                }
            }
            write(conn, write, rows);
        }
        try (Statement st = conn.createStatement()) {
            st.execute("alter table binaries drop column message_ids_v33");
            // an expression, not the column alone, so that PostgreSQL rewrites every row without the text
            st.execute("alter table binaries alter column message_ids type bytea using message_ids || ''::bytea,"
                    + " alter column message_ids set not null");
        }
    }

    private static void write(Connection conn, PreparedStatement write, List<Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Object[][] columns = new Object[6][];
        String[] types = {"text", "text", "text", "int4", "text", "bytea"};
        for (int c = 0; c < 6; c++) {
            columns[c] = c == 3 ? new Integer[rows.size()] : c == 5 ? new byte[rows.size()][] : new String[rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                columns[c][r] = rows.get(r)[c];
            }
            write.setArray(c + 1, conn.createArrayOf(types[c], columns[c]));
        }
        write.executeUpdate();
        rows.clear();
    }
}
