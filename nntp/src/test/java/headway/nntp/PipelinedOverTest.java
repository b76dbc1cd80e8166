package headway.nntp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import headway.nntp.NntpClientTest.Recorder;
import headway.overview.OverviewLine;
import headway.simulator.NewsSimulator;
import headway.simulator.NewsSimulator.GroupSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OVER commands sent ahead of the replies before them (RFC 3977 section 3.5), as a distant provider needs. */
class PipelinedOverTest {
    static final String GROUP = "alt.binaries.sim";
    static final Duration T = Duration.ofSeconds(10);

    @Test
    void repliesToCommandsSentAheadComeInOrderOverEveryFraming() throws Exception {
        for (NewsSimulator.Options options : List.of(
                NewsSimulator.Options.defaults(),
                NewsSimulator.Options.defaults().withCompression(),
                NewsSimulator.Options.defaults().withGzipOverview())) {
            try (NewsSimulator sim = NewsSimulator.start(
                            options, List.of(new GroupSpec(GROUP, 7, 20_000, 5, 40, 12, 0.03, 0.02, 0.005)));
                    NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
                c.group(GROUP);
                Recorder r = new Recorder();
                assertThat(c.pipelinesOver()).isFalse();
                c.over(1, 1_000, r);
                assertThat(c.pipelinesOver()).isTrue();
                c.sendOver(1_001, 6_000);
                c.sendOver(6_001, 13_000);
                c.sendOver(13_001, 20_000);
                assertThat(c.unreadReplies()).isEqualTo(3);
                c.receiveOver(1_001, 6_000, r);
                c.sendOver(20_001, 20_010);
                c.receiveOver(6_001, 13_000, r);
                c.receiveOver(13_001, 20_000, r);
                c.receiveOver(20_001, 20_010, r);
                assertThat(c.unreadReplies()).isZero();
                assertThat(r.checksum)
                        .as(options.toString())
                        .isEqualTo(sim.truth(GROUP, 1, 20_000).checksum());
                assertThat(r.missing)
                        .as(options.toString())
                        .anySatisfy(m -> assertThat(m).containsExactly(20_001, 20_010));
                assertThat(c.isBroken()).isFalse();
                // in sync: a plain command after the replies read
                assertThat(c.group(GROUP).high()).isEqualTo(20_000);
            }
        }
    }

    @Test
    void theNextCommandReachesTheServerBeforeTheReplyBeforeItEnds() throws Exception {
        try (HoldingServer server = new HoldingServer(300, 0)) {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try (NntpClient c = NntpClient.connect(server.server(), T, T)) {
                    c.group(HoldingServer.GROUP);
                    Recorder r = new Recorder();
                    c.over(1, 100, r);
                    c.sendOver(101, 200);
                    c.sendOver(201, 300);
                    c.receiveOver(101, 200, r);
                    c.receiveOver(201, 300, r);
                    assertThat(r.headers).hasSize(300);
                    assertThat(r.missing).isEmpty();
                }
            });
        }
    }

    @Test
    void nothingIsSentAheadOfTheFirstOverviewReply() throws Exception {
        try (HoldingServer server = new HoldingServer(300, 0);
                NntpClient c = NntpClient.connect(server.server(), T, T)) {
            c.group(HoldingServer.GROUP);
            c.sendOver(1, 100);
            assertThatThrownBy(() -> c.sendOver(101, 200))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pipelinesOver()");
            Recorder r = new Recorder();
            c.receiveOver(1, 100, r);
            assertThat(r.headers).hasSize(100);
            assertThat(c.isBroken()).isFalse();
        }
    }

    @Test
    void repliesAreReadOnlyInTheOrderSentAndNoOtherCommandCutsIn() throws Exception {
        try (HoldingServer server = new HoldingServer(300, 0);
                NntpClient c = NntpClient.connect(server.server(), T, T)) {
            c.group(HoldingServer.GROUP);
            c.over(1, 100, new Recorder());
            c.sendOver(101, 200);
            c.sendOver(201, 300);
            assertThatThrownBy(() -> c.receiveOver(201, 300, new Recorder()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("OVER 101-200");
            assertThatThrownBy(() -> c.group(HoldingServer.GROUP))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("2 OVER replies are unread");
            Recorder r = new Recorder();
            c.receiveOver(101, 200, r);
            c.receiveOver(201, 300, r);
            assertThat(r.headers).hasSize(200);
            assertThat(c.group(HoldingServer.GROUP).high()).isEqualTo(300);
        }
    }

    @Test
    void aReplyThatFailsWithAnotherUnreadBreaksTheConnection() throws Exception {
        try (NewsSimulator sim =
                        NewsSimulator.start(NewsSimulator.Options.defaults(), List.of(GroupSpec.of(GROUP, 3, 5_000)));
                NntpClient c = NntpClient.connect(Simulators.server(sim), T, T)) {
            c.group(GROUP);
            c.over(1, 10, new Recorder());
            c.sendOver(11, 2_000);
            c.sendOver(2_001, 4_000);
            Recorder failing = new Recorder() {
                @Override
                public void header(OverviewLine line) {
                    super.header(line);
                    throw new IllegalStateException("lease lost");
                }
            };
            assertThatThrownBy(() -> c.receiveOver(11, 2_000, failing)).hasMessage("lease lost");
            assertThat(c.isBroken()).isTrue();
        }
    }
}
