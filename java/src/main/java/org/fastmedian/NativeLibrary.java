package org.fastmedian;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Loads libfastmedian_jni once per class loader, from the first of: the absolute path in the
 * system property {@code fastmedian.library}; the copy inside this jar
 * ({@value #RESOURCE}); {@code System.loadLibrary("fastmedian_jni")} (java.library.path).
 */
final class NativeLibrary {
    static final String PROPERTY = "fastmedian.library";
    static final String RESOURCE = "/native/linux-x86_64/libfastmedian_jni.so";

    private static boolean attempted;
    private static Throwable failure;

    private NativeLibrary() {}

    /** Loads the library on the first call; throws (code library_not_loaded) if it cannot. */
    static synchronized void ensureLoaded() {
        if (!attempted) {
            attempted = true;
            try {
                load(System.getProperty(PROPERTY));
            } catch (IOException | LinkageError | SecurityException e) {
                failure = e;
            }
        }
        if (failure != null)
            throw new FastMedianException("library_not_loaded",
                    "fastmedian: cannot load the native library: " + failure.getMessage(), failure);
    }

    static boolean isLoaded() {
        try {
            ensureLoaded();
            return true;
        } catch (FastMedianException e) {
            return false;
        }
    }

    /** One loading attempt; the error says what was tried. */
    static void load(String explicitPath) throws IOException {
        if (explicitPath != null) {
            try {
                System.load(explicitPath);
            } catch (UnsatisfiedLinkError e) {
                throw linkError("-D" + PROPERTY + "=" + explicitPath + " does not load ("
                        + e.getMessage() + ")", e);
            }
            return;
        }
        URL bundled = isLinuxX64() ? NativeLibrary.class.getResource(RESOURCE) : null;
        if (bundled != null) {
            loadCopy(bundled);
            return;
        }
        try {
            System.loadLibrary("fastmedian_jni");
        } catch (UnsatisfiedLinkError e) {
            throw linkError("no -D" + PROPERTY + "=/path/to/libfastmedian_jni.so was given, this"
                    + " jar holds no " + RESOURCE + " for " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + ", and System.loadLibrary(\"fastmedian_jni\")"
                    + " failed (" + e.getMessage() + "; java.library.path="
                    + System.getProperty("java.library.path") + ")", e);
        }
    }

    // A library inside a jar must become a file to be loaded. Once loaded it stays mapped, so the
    // file is deleted at once and nothing is left behind in the temp folder.
    private static void loadCopy(URL resource) throws IOException {
        Path file = Files.createTempFile("libfastmedian_jni", ".so");
        try {
            try (InputStream in = resource.openStream()) {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            }
            System.load(file.toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError e) {
            throw linkError("the copy of " + resource + " does not load (" + e.getMessage() + ")", e);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static boolean isLinuxX64() {
        String arch = System.getProperty("os.arch");
        return System.getProperty("os.name").startsWith("Linux")
                && ("amd64".equals(arch) || "x86_64".equals(arch));
    }

    private static UnsatisfiedLinkError linkError(String message, Throwable cause) {
        UnsatisfiedLinkError e = new UnsatisfiedLinkError(message);
        e.initCause(cause);
        return e;
    }
}
