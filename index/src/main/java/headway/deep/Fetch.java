package headway.deep;

/**
 * One article to fetch for inspection.
 *
 * @param file the file's index in the posted files (posting order)
 * @param segment the article's part number in the file, from 1
 * @param why what the article usually holds, for the reason a person reads
 */
public record Fetch(int file, int segment, String why) {}
