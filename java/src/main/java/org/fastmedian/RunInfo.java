package org.fastmedian;

/** What actually ran a call: the backend (CPU or CUDA, never AUTO) and the device. */
public final class RunInfo {
    private final Backend backend;
    private final int device;
    private final String deviceName;

    // Built by the JNI bridge from the library's names.
    RunInfo(String backend, int device, String deviceName) {
        this.backend = Backend.fromName(backend);
        this.device = device;
        this.deviceName = deviceName;
    }

    public Backend backend() {
        return backend;
    }

    /** The CUDA device index, or -1 for the CPU. */
    public int device() {
        return device;
    }

    /** "CPU" or the GPU's name. */
    public String deviceName() {
        return deviceName;
    }

    /** For logs: "cpu (CPU)" or "cuda:0 (NVIDIA H100 80GB HBM3)". */
    @Override
    public String toString() {
        return backend + (device >= 0 ? ":" + device : "") + " (" + deviceName + ")";
    }
}
