package headway.inspect.nfo;

/**
 * A scene release name an NFO mentions.
 *
 * @param name the name as written (a file extension after it dropped)
 * @param position the offset of its first char in {@link Nfo#text()}
 */
public record ReleaseName(String name, int position) {}
