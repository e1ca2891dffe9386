package org.fastmedian;

/**
 * How {@link FastMedian#background} estimates the background: {@code EXACT} the exact median
 * over the window (squares and ImageJ circles), {@code SEPARABLE} the separable smoother, an
 * approximate median for large squares: a 1D median of k along y, then a 1D median of k along x
 * of that result, both with the same border.
 */
public enum BackgroundMethod {
    EXACT("exact"),
    SEPARABLE("separable");

    private final String name;

    BackgroundMethod(String name) {
        this.name = name;
    }

    /** The library's name for this method, as the native side parses it. */
    @Override
    public String toString() {
        return name;
    }
}
