package headway.activity;

import headway.nntp.GroupInfo;
import headway.nntp.OverviewSink;
import java.io.IOException;

/** Where overview headers come from: an NNTP server through the worker's connection pool. */
public interface HeaderSource {

    /** Streams the overview of articles {@code [from, to]} of {@code group} to {@code sink}, in article order. */
    void fetch(String group, long from, long to, OverviewSink sink) throws IOException;

    /** The group's article counts and high-water mark on the server. */
    GroupInfo group(String group) throws IOException;

    /**
     * A run of fetches from one group over one connection, held until closed, whose requests may be
     * sent ahead of the replies before them so that a distant server does not leave the connection
     * idle for a round trip between two fetches. This default sends nothing ahead: each range is
     * fetched when it is received.
     */
    default Pipeline pipeline(String group) throws IOException {
        return new Pipeline() {
            @Override
            public int ahead() {
                return 1;
            }

            @Override
            public void send(long from, long to) {}

            @Override
            public void receive(long from, long to, OverviewSink sink) throws IOException {
                fetch(group, from, to, sink);
            }

            @Override
            public void close() {}
        };
    }

    /** Fetches over one connection; see {@link HeaderSource#pipeline}. Not thread-safe. */
    interface Pipeline extends AutoCloseable {

        /** How many ranges may be sent and not yet received. */
        int ahead();

        /** Asks for articles {@code [from, to]}; their overview comes with the matching {@link #receive}. */
        void send(long from, long to) throws IOException;

        /** Streams the overview of the oldest range sent, which was {@code [from, to]}, to {@code sink}. */
        void receive(long from, long to, OverviewSink sink) throws IOException;

        /**
         * Whether others are waiting for a connection this one holds from a shared pool: the holder
         * should then finish what it asked for and give the connection back before asking for more.
         */
        default boolean othersWaiting() {
            return false;
        }

        /** Gives the connection back; one with replies still unread is closed. */
        @Override
        void close();
    }
}
