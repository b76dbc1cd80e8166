package headway.nntp;

import headway.simulator.NewsSimulator;

/** The news simulator (module rigs, which knows no headway type) as an {@link NntpServer} to connect to. */
public final class Simulators {

    private Simulators() {}

    /** The simulator's address, with the credentials it requires when it requires some. */
    public static NntpServer server(NewsSimulator sim) {
        NntpServer plain = NntpServer.plain(sim.host(), sim.port());
        NewsSimulator.Credentials required = sim.requiredCredentials();
        return required == null
                ? plain
                : plain.withCredentials(new NntpServer.Credentials(required.user(), required.password()));
    }
}
