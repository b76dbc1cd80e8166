package headway.inspect.par2;

/**
 * A file of a PAR2 recovery set, from its file description packet. Ids and hashes are lower-case
 * hex of their 16 bytes.
 *
 * @param id the file id (MD5 of the 16 KiB hash, the length and the name)
 * @param name the file's name as the set stores it, decoded totally and cleaned
 * @param length the file's length in bytes
 * @param md5 MD5 of the whole file
 * @param md5Of16k MD5 of the file's first min(16384, length) bytes
 */
public record Par2File(String id, String name, long length, String md5, String md5Of16k) {}
