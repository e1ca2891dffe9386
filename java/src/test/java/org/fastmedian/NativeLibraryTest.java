package org.fastmedian;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NativeLibraryTest {
    @Test
    void aBadExplicitPathSaysWhatWasTried() {
        String path = "/nonexistent/libfastmedian_jni.so";
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeLibrary.load(path));
        assertTrue(e.getMessage().contains("-Dfastmedian.library=" + path), e.getMessage());
    }

    @Test
    void theTestLibraryLoads() {
        assertTrue(FastMedian.isAvailable(), "set -Dfastmedian.library to the built"
                + " libfastmedian_jni.so (now " + System.getProperty("fastmedian.library") + ")");
    }
}
