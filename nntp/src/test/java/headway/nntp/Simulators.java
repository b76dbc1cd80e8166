package headway.nntp;

import headway.simulator.NewsSimulator;

/** The news simulator (module rigs, which knows no headway type) as an {@link NntpServer} to connect to. */
public final class Simulators {

    private Simulators() {}

    /**
     * The simulator's address, with the credentials it requires when it requires some; the simulator
     * speaks plain text on loopback, so the password may cross unencrypted.
     */
    public static NntpServer server(NewsSimulator sim) {
        NntpServer plain = NntpServer.plain(sim.host(), sim.port())
                .withSecurity(new NntpServer.Security(NntpServer.StartTls.AUTO, null, true, true));
        NewsSimulator.Credentials required = sim.requiredCredentials();
        return required == null
                ? plain
                : plain.withCredentials(new NntpServer.Credentials(required.user(), required.password()));
    }
}
