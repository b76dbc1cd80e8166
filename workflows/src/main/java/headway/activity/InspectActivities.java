package headway.activity;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;

/**
 * The deep index's two steps: which releases to read inside, and reading one. Both are
 * idempotent: a claim marks releases taken until a deadline (a run that dies leaves them to the
 * next run after it), and an inspection records its outcome with one write that a repeat makes
 * again unchanged, so a retry, an overlapping run or a takeover never names a release twice.
 */
@ActivityInterface
public interface InspectActivities {

    /**
     * Claims up to {@code max} releases due for inspection (their names look obfuscated or their
     * files were never read, they hold the files a namer needs, and their backoff has passed),
     * counting an attempt on each.
     */
    @ActivityMethod
    List<InspectTarget> claim(int max);

    /**
     * Reads inside one release within the article budget (fetches its planned articles, reads the
     * PAR2, NFO and archive listings, decides its name, password and IMDb id) and records the
     * outcome; a release that cannot be read past its last attempt is recorded as given up.
     */
    @ActivityMethod
    InspectOutcome inspect(InspectTarget target);
}
