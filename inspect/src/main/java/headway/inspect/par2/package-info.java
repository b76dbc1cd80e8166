/**
 * PAR2 recovery sets read from their packets: the names, lengths and MD5s of the files a set
 * protects, and the MD5 of each file's first 16 KiB, which maps an obfuscated file to its real name
 * from its first article alone ({@link headway.inspect.par2.Par2Set#fileFor}). The reader takes any
 * part of a PAR2 file and trusts only packets whose MD5 checks; recovery data is counted, never
 * copied. The trade-off: a packet cut by the end of the bytes given is lost whole, even when its
 * first fields were there, because its hash cannot be checked.
 */
package headway.inspect.par2;
