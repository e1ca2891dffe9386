package org.fastmedian;

/** The {@code devices(...)} argument of the options classes, checked once for all of them. */
final class DeviceList {
    private DeviceList() {}

    /** A copy of {@code devices}; throws (invalid_argument) when it is null or empty. */
    static int[] checked(int[] devices) {
        if (devices == null || devices.length == 0)
            throw new FastMedianException("invalid_argument",
                    "devices: at least one CUDA device index");
        return devices.clone();
    }
}
