package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.CompositeImage;
import ij.ImagePlus;
import ij.ImageStack;
import java.util.Random;
import org.fastmedian.FastMedian;
import org.fastmedian.TemporalMode;
import org.fastmedian.TemporalOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TemporalMedianCommand.filter in this JVM (no ImageJ window): which slices are the frames of a
 * hyperstack, bands of pixels (down to one pixel per call) and RGB channels all give what the
 * binding gives on each series of frames as a whole.
 */
class TemporalMedianCommandTest {
    private static final int W = 13, H = 7;

    @ParameterizedTest(name = "band of {0} frames x pixels")
    @ValueSource(ints = {TemporalMedianCommand.BAND_ELEMENTS, 50, 1})
    void hyperstackTimePointsForEachChannelAndSlice(int band) {
        ImagePlus imp = hyperstack(2, 3, 9, new Random(1));
        TemporalOptions options = TemporalOptions.of(4).mode(TemporalMode.SUBTRACT).offset(7);
        TemporalMedianCommand.Filtered result = TemporalMedianCommand.filter(imp, options, band);
        assertEquals(6, result.frames.series);
        assertEquals(9, result.frames.count);
        ImagePlus got = result.image;
        assertEquals(2, got.getNChannels());
        assertEquals(3, got.getNSlices());
        assertEquals(9, got.getNFrames());
        assertTrue(got.isComposite());
        for (int c = 1; c <= 2; c++)
            for (int z = 1; z <= 3; z++) {
                int[] indexes = new int[9];
                for (int t = 1; t <= 9; t++) indexes[t - 1] = imp.getStackIndex(c, z, t);
                assertSeries(imp, got, indexes, options);
            }
    }

    @ParameterizedTest(name = "band of {0} frames x pixels")
    @ValueSource(ints = {TemporalMedianCommand.BAND_ELEMENTS, 33, 1})
    void withoutTimeAxisTheSlicesOfEachChannel(int band) {
        ImagePlus imp = hyperstack(3, 5, 1, new Random(2));
        TemporalOptions options = TemporalOptions.of(5);
        TemporalMedianCommand.Filtered result = TemporalMedianCommand.filter(imp, options, band);
        assertEquals(3, result.frames.series);
        assertEquals(5, result.frames.count);
        for (int c = 1; c <= 3; c++) {
            int[] indexes = new int[5];
            for (int z = 1; z <= 5; z++) indexes[z - 1] = imp.getStackIndex(c, z, 1);
            assertSeries(imp, result.image, indexes, options);
        }
    }

    @ParameterizedTest(name = "band of {0} frames x pixels")
    @ValueSource(ints = {TemporalMedianCommand.BAND_ELEMENTS, 20, 1})
    void rgbChannelByChannel(int band) {
        Random random = new Random(3);
        ImageStack stack = new ImageStack(W, H);
        for (int i = 0; i < 6; i++) {
            int[] rgb = new int[W * H];
            for (int j = 0; j < rgb.length; j++) rgb[j] = 0xff000000 | random.nextInt(1 << 24);
            stack.addSlice("", rgb);
        }
        ImagePlus imp = new ImagePlus("rgb", stack);
        TemporalOptions options = TemporalOptions.of(3).mode(TemporalMode.SUBTRACT).offset(40);
        ImagePlus got = TemporalMedianCommand.filter(imp, options, band).image;
        assertEquals(24, got.getBitDepth());
        for (int shift = 0; shift <= 16; shift += 8) {
            byte[] src = new byte[6 * W * H], want = new byte[src.length];
            for (int t = 0; t < 6; t++) {
                int[] rgb = (int[]) stack.getPixels(t + 1);
                for (int j = 0; j < W * H; j++) src[t * W * H + j] = (byte) (rgb[j] >> shift);
            }
            FastMedian.temporalMedian(src, want, W, H, 6, options);
            for (int t = 0; t < 6; t++) {
                int[] rgb = (int[]) got.getStack().getPixels(t + 1);
                for (int j = 0; j < W * H; j++) {
                    assertEquals(0xff, rgb[j] >>> 24, "alpha");
                    assertEquals(want[t * W * H + j], (byte) (rgb[j] >> shift),
                            "frame " + t + " pixel " + j + " shift " + shift);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}-bit")
    @ValueSource(ints = {8, 32})
    void eightAndThirtyTwoBitPlainStacks(int bits) {
        Random random = new Random(bits);
        ImageStack stack = new ImageStack(W, H);
        for (int i = 0; i < 10; i++) {
            if (bits == 8) {
                byte[] p = new byte[W * H];
                random.nextBytes(p);
                stack.addSlice("", p);
            } else {
                float[] p = new float[W * H];
                for (int j = 0; j < p.length; j++)
                    p[j] = random.nextInt(9) == 0 ? Float.NaN : (float) random.nextGaussian();
                stack.addSlice("", p);
            }
        }
        ImagePlus imp = new ImagePlus("plain", stack);
        TemporalOptions options = TemporalOptions.of(6).mode(TemporalMode.SUBTRACT).offset(-1.5);
        TemporalMedianCommand.Filtered result = TemporalMedianCommand.filter(imp, options, 40);
        assertEquals(1, result.frames.series);
        assertEquals("10 frames (the slices)", result.frames.describe());
        int[] indexes = new int[10];
        for (int t = 0; t < 10; t++) indexes[t] = t + 1;
        assertSeries(imp, result.image, indexes, options);
    }

    // A 16-bit composite hyperstack of random values with ties.
    // Esc (the stop supplier) is asked before every library call but the first; saying stop
    // gives no result, never asking it gives the whole one.
    @ParameterizedTest(name = "stop at question {0}")
    @ValueSource(ints = {1, 5})
    void stopsBetweenLibraryCalls(int stopAt) {
        ImagePlus imp = hyperstack(2, 3, 9, new Random(3));
        int[] asked = {0};
        TemporalMedianCommand.Filtered result = TemporalMedianCommand.filter(imp,
                TemporalOptions.of(4), 50, () -> ++asked[0] == stopAt);
        assertEquals(null, result);
        assertEquals(stopAt, asked[0]);
        asked[0] = 0;
        assertTrue(TemporalMedianCommand.filter(imp, TemporalOptions.of(4), 50,
                () -> ++asked[0] < 0) != null);
        assertTrue(asked[0] > stopAt, "asked " + asked[0] + " times");
    }

    private static ImagePlus hyperstack(int channels, int slices, int frames, Random random) {
        ImageStack stack = new ImageStack(W, H);
        for (int i = 0; i < channels * slices * frames; i++) {
            short[] p = new short[W * H];
            for (int j = 0; j < p.length; j++)
                p[j] = (short) (j % 4 == 0 ? random.nextInt(3) : random.nextInt(65536));
            stack.addSlice("", p);
        }
        ImagePlus imp = new ImagePlus("hyperstack", stack);
        imp.setDimensions(channels, slices, frames);
        imp.setOpenAsHyperStack(true);
        return new CompositeImage(imp, CompositeImage.COMPOSITE);
    }

    // The slices `indexes` (1-based) of `got` equal the binding's result on those of `imp`.
    private static void assertSeries(ImagePlus imp, ImagePlus got, int[] indexes,
            TemporalOptions options) {
        int n = W * H, frames = indexes.length;
        Object first = imp.getStack().getPixels(indexes[0]);
        if (first instanceof short[]) {
            short[] src = new short[n * frames], want = new short[n * frames];
            short[] have = new short[n * frames];
            for (int t = 0; t < frames; t++) {
                System.arraycopy(imp.getStack().getPixels(indexes[t]), 0, src, t * n, n);
                System.arraycopy(got.getStack().getPixels(indexes[t]), 0, have, t * n, n);
            }
            FastMedian.temporalMedian(src, want, W, H, frames, options);
            assertArrayEquals(want, have);
        } else if (first instanceof byte[]) {
            byte[] src = new byte[n * frames], want = new byte[n * frames];
            byte[] have = new byte[n * frames];
            for (int t = 0; t < frames; t++) {
                System.arraycopy(imp.getStack().getPixels(indexes[t]), 0, src, t * n, n);
                System.arraycopy(got.getStack().getPixels(indexes[t]), 0, have, t * n, n);
            }
            FastMedian.temporalMedian(src, want, W, H, frames, options);
            assertArrayEquals(want, have);
        } else {
            float[] src = new float[n * frames], want = new float[n * frames];
            float[] have = new float[n * frames];
            for (int t = 0; t < frames; t++) {
                System.arraycopy(imp.getStack().getPixels(indexes[t]), 0, src, t * n, n);
                System.arraycopy(got.getStack().getPixels(indexes[t]), 0, have, t * n, n);
            }
            FastMedian.temporalMedian(src, want, W, H, frames, options);
            for (int j = 0; j < want.length; j++)
                assertEquals(Float.floatToRawIntBits(want[j]), Float.floatToRawIntBits(have[j]),
                        "pixel " + j);
        }
    }
}
