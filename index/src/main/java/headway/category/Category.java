package headway.category;

/**
 * One newznab category: {@code id} in the Prowlarr/Jackett numbering (a parent is a multiple of
 * 1000, its subcategories the ids above it up to the next thousand), {@code name} as those tools
 * spell it ({@code TV/HD}), and {@code parentId}, equal to {@code id} for a parent.
 */
public record Category(int id, String name, int parentId) {

    public boolean isParent() {
        return id == parentId;
    }

    /** The name without the parent's prefix, as newznab caps lists a subcategory: {@code HD} for {@code TV/HD}. */
    public String shortName() {
        int slash = name.indexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }
}
