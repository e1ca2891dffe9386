package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.IJ;
import ij.ImagePlus;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Bit-exact comparison of ImageJ images (NaN payloads and -0.0 count), for the macro tests. */
final class PixelAssert {
    private PixelAssert() {}

    /** Same slices with the same bits, else fails saying where they first differ. */
    static void assertSamePixels(ImagePlus want, ImagePlus got, String what) {
        assertEquals(want.getStackSize(), got.getStackSize(), what + ": slices");
        for (int i = 1; i <= want.getStackSize(); i++) {
            Object w = want.getStack().getPixels(i), g = got.getStack().getPixels(i);
            assertEquals(w.getClass(), g.getClass(), what + ": pixel type");
            Optional<String> difference = firstDifference(w, g);
            int slice = i;
            difference.ifPresent(d -> {
                throw new AssertionError(what + ": slice " + slice + " differs at " + d);
            });
        }
    }

    static Optional<String> firstDifference(Object want, Object got) {
        int n = Array.getLength(want);
        if (n != Array.getLength(got)) return Optional.of("the size");
        for (int j = 0; j < n; j++) {
            long w = bits(want, j), g = bits(got, j);
            if (w != g)
                return Optional.of("pixel " + j + ": want " + Array.get(want, j) + " (bits "
                        + Long.toHexString(w) + "), got " + Array.get(got, j) + " (bits "
                        + Long.toHexString(g) + ")");
        }
        return Optional.empty();
    }

    static long bits(Object pixels, int j) {
        if (pixels instanceof byte[]) return ((byte[]) pixels)[j] & 0xff;
        if (pixels instanceof short[]) return ((short[]) pixels)[j] & 0xffff;
        if (pixels instanceof float[]) return Float.floatToRawIntBits(((float[]) pixels)[j]);
        return ((int[]) pixels)[j] & 0xffffffffL;
    }

    static ImagePlus open(Path tif) throws IOException {
        assertTrue(Files.isRegularFile(tif), "no " + tif);
        ImagePlus imp = IJ.openImage(tif.toString());
        assertTrue(imp != null, "ImageJ cannot open " + tif);
        return imp;
    }
}
