package org.fastmedian;

/** One CUDA device this machine offers. */
public final class DeviceInfo {
    private final int index;
    private final String name;
    private final int computeMajor;
    private final int computeMinor;
    private final long memoryBytes;
    private final String policy;
    private final String unsupported;

    // Built by the JNI bridge.
    DeviceInfo(int index, String name, int computeMajor, int computeMinor, long memoryBytes,
               String policy, String unsupported) {
        this.index = index;
        this.name = name;
        this.computeMajor = computeMajor;
        this.computeMinor = computeMinor;
        this.memoryBytes = memoryBytes;
        this.policy = policy;
        this.unsupported = unsupported;
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public int computeMajor() {
        return computeMajor;
    }

    public int computeMinor() {
        return computeMinor;
    }

    public long memoryBytes() {
        return memoryBytes;
    }

    /** The GPU policy its kernels follow (its architecture's limits and tuning, "sm_86"). */
    public String policy() {
        return policy;
    }

    /**
     * Why this build of the library cannot filter on it ("" where it can): a GPU older than
     * Turing, or a build without code for its architecture. Backend.AUTO then runs on the CPU.
     */
    public String unsupported() {
        return unsupported;
    }

    @Override
    public String toString() {
        return "cuda:" + index + " " + name + " (sm_" + computeMajor + computeMinor + ", "
                + (memoryBytes >> 20) + " MiB" + (unsupported.isEmpty() ? ", policy " + policy
                : ", not usable: " + unsupported) + ")";
    }
}
