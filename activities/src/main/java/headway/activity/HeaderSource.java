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
}
