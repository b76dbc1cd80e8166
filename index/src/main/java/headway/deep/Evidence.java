package headway.deep;

import headway.inspect.archive.Listing;
import headway.inspect.nfo.Nfo;
import headway.inspect.par2.Par2Set;
import java.util.List;

/**
 * What inspect's readers read out of one release's files. Several of a kind are normal: a PAR2
 * index and its recovery volumes each hold the file descriptions, and a RAR set gives a listing per
 * volume; their order does not matter.
 *
 * @param par2 the PAR2 sets read
 * @param nfos the NFOs read
 * @param listings the archive listings read
 */
public record Evidence(List<Par2Set> par2, List<Nfo> nfos, List<Listing> listings) {

    public Evidence {
        par2 = List.copyOf(par2);
        nfos = List.copyOf(nfos);
        listings = List.copyOf(listings);
    }

    /** No evidence: nothing was read yet. */
    public static Evidence none() {
        return new Evidence(List.of(), List.of(), List.of());
    }
}
