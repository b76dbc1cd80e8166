package headway.catalog;

import java.time.Instant;

/** One stored rule set version, without its body. */
public record RuleSetInfo(int version, String name, Instant createdAt) {}
