package org.fastmedian;

/**
 * How pixels outside the image are read (scipy.ndimage names in brackets):
 * <pre>
 *   REPLICATE  a a a | a b c d | d d d   (nearest; ImageJ's RankFilters)
 *   REFLECT    b a | a b c d | d c       (reflect)
 *   MIRROR     c b | a b c d | c b       (mirror)
 *   CONSTANT   v v | a b c d | v v       (constant, v = cval in the pixel type)
 *   WRAP       c d | a b c d | a b       (wrap)
 * </pre>
 */
public enum Border {
    REPLICATE("replicate"),
    REFLECT("reflect"),
    MIRROR("mirror"),
    CONSTANT("constant"),
    WRAP("wrap");

    private final String name;

    Border(String name) {
        this.name = name;
    }

    /** The library's name for this mode, as the native side parses it. */
    @Override
    public String toString() {
        return name;
    }
}
