package headway.category;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The newznab standard categories with the ids and names of Prowlarr's
 * {@code NewznabStandardCategory} (which Jackett's {@code TorznabCatType} shares), so that Sonarr,
 * Radarr, Prowlarr and NZBHydra2 read them without a mapping. Immutable; one shared instance.
 */
public final class CategoryTree {

    private static final CategoryTree STANDARD = build();

    private final Map<Integer, Category> byId;
    private final Map<Integer, List<Category>> children;
    private final List<Category> parentsInOrder;
    private final List<Category> inOrder;

    private CategoryTree(Map<Integer, Category> byId) {
        this.byId = Map.copyOf(byId);
        List<Category> sorted = byId.values().stream()
                .sorted((a, b) -> Integer.compare(a.id(), b.id()))
                .toList();
        Map<Integer, List<Category>> kids = new LinkedHashMap<>();
        for (Category c : sorted) {
            if (c.isParent()) {
                kids.putIfAbsent(c.id(), new ArrayList<>());
            } else {
                kids.computeIfAbsent(c.parentId(), k -> new ArrayList<>()).add(c);
            }
        }
        kids.replaceAll((k, v) -> List.copyOf(v));
        this.children = kids;
        this.parentsInOrder = sorted.stream().filter(Category::isParent).toList();
        this.inOrder = sorted;
    }

    /** The standard tree. */
    public static CategoryTree standard() {
        return STANDARD;
    }

    /** The parents in id order (Console 1000 ... Other 8000), for newznab caps. */
    public List<Category> parents() {
        return parentsInOrder;
    }

    /** The subcategories of {@code parentId} in id order; empty for an unknown id or a subcategory. */
    public List<Category> subcategories(int parentId) {
        return children.getOrDefault(parentId, List.of());
    }

    public Optional<Category> byId(int id) {
        return Optional.ofNullable(byId.get(id));
    }

    public boolean contains(int id) {
        return byId.containsKey(id);
    }

    /** Every category in id order. */
    public List<Category> all() {
        return inOrder;
    }

    /**
     * The ids a newznab {@code cat} filter selects: each id itself, and for a parent every one of
     * its subcategories too (clients ask for {@code 5000} meaning all of TV). Unknown ids are kept,
     * so that a filter on them simply matches nothing.
     */
    public Set<Integer> expand(Collection<Integer> ids) {
        Set<Integer> out = new LinkedHashSet<>();
        for (int id : ids) {
            out.add(id);
            Category c = byId.get(id);
            if (c != null && c.isParent()) {
                for (Category sub : subcategories(id)) {
                    out.add(sub.id());
                }
            }
        }
        return out;
    }

    private static CategoryTree build() {
        Map<Integer, Category> m = new LinkedHashMap<>();
        Object[][] rows = {
            {1000, "Console"},
            {1010, "Console/NDS"},
            {1020, "Console/PSP"},
            {1030, "Console/Wii"},
            {1040, "Console/XBox"},
            {1050, "Console/XBox 360"},
            {1060, "Console/Wiiware"},
            {1070, "Console/XBox 360 DLC"},
            {1080, "Console/PS3"},
            {1090, "Console/Other"},
            {1110, "Console/3DS"},
            {1120, "Console/PS Vita"},
            {1130, "Console/WiiU"},
            {1140, "Console/XBox One"},
            {1180, "Console/PS4"},
            {2000, "Movies"},
            {2010, "Movies/Foreign"},
            {2020, "Movies/Other"},
            {2030, "Movies/SD"},
            {2040, "Movies/HD"},
            {2045, "Movies/UHD"},
            {2050, "Movies/BluRay"},
            {2060, "Movies/3D"},
            {2070, "Movies/DVD"},
            {2080, "Movies/WEB-DL"},
            {2090, "Movies/x265"},
            {3000, "Audio"},
            {3010, "Audio/MP3"},
            {3020, "Audio/Video"},
            {3030, "Audio/Audiobook"},
            {3040, "Audio/Lossless"},
            {3050, "Audio/Other"},
            {3060, "Audio/Foreign"},
            {4000, "PC"},
            {4010, "PC/0day"},
            {4020, "PC/ISO"},
            {4030, "PC/Mac"},
            {4040, "PC/Mobile-Other"},
            {4050, "PC/Games"},
            {4060, "PC/Mobile-iOS"},
            {4070, "PC/Mobile-Android"},
            {5000, "TV"},
            {5010, "TV/WEB-DL"},
            {5020, "TV/Foreign"},
            {5030, "TV/SD"},
            {5040, "TV/HD"},
            {5045, "TV/UHD"},
            {5050, "TV/Other"},
            {5060, "TV/Sport"},
            {5070, "TV/Anime"},
            {5080, "TV/Documentary"},
            {5090, "TV/x265"},
            {6000, "XXX"},
            {6010, "XXX/DVD"},
            {6020, "XXX/WMV"},
            {6030, "XXX/XviD"},
            {6040, "XXX/x264"},
            {6045, "XXX/UHD"},
            {6050, "XXX/Pack"},
            {6060, "XXX/ImageSet"},
            {6070, "XXX/Other"},
            {6080, "XXX/SD"},
            {6090, "XXX/WEB-DL"},
            {7000, "Books"},
            {7010, "Books/Mags"},
            {7020, "Books/EBook"},
            {7030, "Books/Comics"},
            {7040, "Books/Technical"},
            {7050, "Books/Other"},
            {7060, "Books/Foreign"},
            {8000, "Other"},
            {8010, "Other/Misc"},
            {8020, "Other/Hashed"},
        };
        for (Object[] r : rows) {
            int id = (Integer) r[0];
            m.put(id, new Category(id, (String) r[1], id / 1000 * 1000));
        }
        return new CategoryTree(m);
    }
}
