package org.fastmedian;

/**
 * What {@link FastMedian#background} writes: {@code SUBTRACT} the image minus its background
 * plus an offset, {@code BACKGROUND} the background itself.
 */
public enum BackgroundOutput {
    SUBTRACT("subtract"),
    BACKGROUND("background");

    private final String name;

    BackgroundOutput(String name) {
        this.name = name;
    }

    /** The library's name for this output, as the native side parses it. */
    @Override
    public String toString() {
        return name;
    }
}
