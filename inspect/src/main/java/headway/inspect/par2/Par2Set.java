package headway.inspect.par2;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the packets of (part of) a PAR2 file say about their recovery set.
 *
 * @param setId the recovery set id, hex; empty when no packet was read
 * @param sliceSize the slice size of the main packet, 0 without one
 * @param recoveryFileIds the main packet's ids of the files the set protects, in its order
 * @param otherFileIds the main packet's ids of files described but not protected
 * @param files the files whose description packets were read, once each, in the order seen
 * @param recoveryBlocks recovery slice packets seen (their data is skipped, never kept)
 * @param exponents their exponents, in the order seen
 * @param creator the creator packet's text, empty without one
 * @param packetsRead packets whose hash checked and were used (duplicates included)
 * @param packetsSkipped packets skipped: bad hash, bad length, another set, unknown type
 * @param reason why reading stopped before the end of the bytes, or what was skipped first; null when neither
 */
public record Par2Set(
        String setId,
        long sliceSize,
        List<String> recoveryFileIds,
        List<String> otherFileIds,
        List<Par2File> files,
        int recoveryBlocks,
        List<Integer> exponents,
        String creator,
        int packetsRead,
        int packetsSkipped,
        String reason) {

    /** The PAR2 quick-check hash covers a file's first 16 KiB (or all of a shorter file). */
    public static final int HASH_16K = 16384;

    public Par2Set {
        recoveryFileIds = List.copyOf(recoveryFileIds);
        otherFileIds = List.copyOf(otherFileIds);
        files = List.copyOf(files);
        exponents = List.copyOf(exponents);
    }

    /**
     * The file whose first bytes these are, as downloaders' par-rename finds it: MD5 over the first
     * min(16384, length) bytes of {@code first16k} and the length must both match a description.
     * Empty when none matches, when fewer bytes are given than the hash covers, or when two files of
     * different names match (identical heads of the same length: the bytes cannot tell them apart).
     */
    public Optional<Par2File> fileFor(byte[] first16k, long length) {
        int covered = (int) Math.min(HASH_16K, Math.max(0, length));
        if (length < 0 || first16k.length < covered) {
            return Optional.empty();
        }
        String hash = md5Hex(first16k, 0, covered);
        List<Par2File> matches = new ArrayList<>();
        for (Par2File f : files) {
            if (f.length() == length && f.md5Of16k().equals(hash)) {
                matches.add(f);
            }
        }
        if (matches.isEmpty() || matches.stream().map(Par2File::name).distinct().count() > 1) {
            return Optional.empty();
        }
        return Optional.of(matches.get(0));
    }

    static String md5Hex(byte[] b, int off, int len) {
        MessageDigest md = md5();
        md.update(b, off, len);
        return hex(md.digest(), 0, 16);
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
    }

    static String hex(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder(len * 2);
        for (int i = off; i < off + len; i++) {
            s.append(Character.forDigit((b[i] >> 4) & 0xf, 16)).append(Character.forDigit(b[i] & 0xf, 16));
        }
        return s.toString();
    }
}
