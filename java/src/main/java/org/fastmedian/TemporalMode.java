package org.fastmedian;

/**
 * What a temporal median writes for each frame: {@code MEDIAN} the median of its window of
 * frames (the background), {@code SUBTRACT} the frame minus that median plus an offset.
 */
public enum TemporalMode {
    MEDIAN("median"),
    SUBTRACT("subtract");

    private final String name;

    TemporalMode(String name) {
        this.name = name;
    }

    /** The library's name for this mode, as the native side parses it. */
    @Override
    public String toString() {
        return name;
    }
}
