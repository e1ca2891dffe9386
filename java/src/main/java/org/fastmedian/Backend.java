package org.fastmedian;

/** Where a filter runs. AUTO picks the first CUDA device when there is one, else the CPU. */
public enum Backend {
    AUTO("auto"),
    CPU("cpu"),
    CUDA("cuda");

    private final String name;

    Backend(String name) {
        this.name = name;
    }

    /** The library's name for this backend, as the native side parses and reports it. */
    @Override
    public String toString() {
        return name;
    }

    static Backend fromName(String name) {
        for (Backend b : values())
            if (b.name.equals(name)) return b;
        throw new FastMedianException("invalid_argument",
                "unknown backend name: " + name + " (auto, cpu or cuda)");
    }
}
