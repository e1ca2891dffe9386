package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.fastmedian.BackgroundMethod;
import org.fastmedian.BackgroundOptions;
import org.fastmedian.BackgroundOutput;
import org.fastmedian.FastMedian;
import org.junit.jupiter.api.Test;

/**
 * BackgroundSubtractionCommand in this JVM (no ImageJ window): what the dialog's values mean,
 * and each pixel type (RGB channel by channel) giving what the binding gives.
 */
class BackgroundSubtractionCommandTest {
    private static final int W = 41, H = 29, N = W * H;

    @Test
    void circleExactSubtractByDefault() {
        BackgroundOptions o = BackgroundSubtractionCommand.options(20, "circle", "exact", 5, false);
        assertTrue(o.isCircle());
        assertEquals(20.0, o.radius());
        assertEquals(BackgroundMethod.EXACT, o.method());
        assertEquals(BackgroundOutput.SUBTRACT, o.output());
        assertEquals(5.0, o.offset());
    }

    @Test
    void squareOfSide2RPlus1AndCreateBackground() {
        BackgroundOptions o = BackgroundSubtractionCommand.options(32, "square", "separable", 7,
                true);
        assertFalse(o.isCircle());
        assertEquals(65, o.size());
        assertEquals(BackgroundMethod.SEPARABLE, o.method());
        assertEquals(BackgroundOutput.BACKGROUND, o.output());
        assertEquals(0.0, o.offset(), "the offset is unused with create background");
    }

    @Test
    void eachPixelTypeAsTheBinding() {
        Random rnd = new Random(4);
        BackgroundOptions o = BackgroundSubtractionCommand.options(6, "square", "exact", 12.5,
                false);
        byte[] b = new byte[N];
        rnd.nextBytes(b);
        byte[] wantB = new byte[N];
        FastMedian.background(b, wantB, W, H, 1, o);
        assertArrayEquals(wantB, (byte[]) BackgroundSubtractionCommand.filter(b, W, H, o).pixels);
        short[] s = new short[N];
        for (int i = 0; i < N; i++) s[i] = (short) rnd.nextInt(65536);
        short[] wantS = new short[N];
        FastMedian.background(s, wantS, W, H, 1, o);
        assertArrayEquals(wantS, (short[]) BackgroundSubtractionCommand.filter(s, W, H, o).pixels);
        float[] f = new float[N];
        for (int i = 0; i < N; i++) f[i] = (float) rnd.nextGaussian();
        float[] wantF = new float[N];
        FastMedian.background(f, wantF, W, H, 1, o);
        assertArrayEquals(wantF, (float[]) BackgroundSubtractionCommand.filter(f, W, H, o).pixels);
    }

    @Test
    void rgbChannelByChannel() {
        Random rnd = new Random(3);
        int[] rgb = new int[N];
        for (int i = 0; i < N; i++) rgb[i] = 0xff000000 | rnd.nextInt(1 << 24);
        BackgroundOptions o = BackgroundSubtractionCommand.options(4.5, "circle", "exact", 30,
                false);
        int[] got = (int[]) BackgroundSubtractionCommand.filter(rgb, W, H, o).pixels;
        for (int shift = 0; shift <= 16; shift += 8) {
            byte[] src = new byte[N], want = new byte[N];
            for (int i = 0; i < N; i++) src[i] = (byte) (rgb[i] >> shift);
            FastMedian.background(src, want, W, H, 1, o);
            for (int i = 0; i < N; i++)
                assertEquals(want[i] & 0xff, (got[i] >> shift) & 0xff, "shift " + shift + " at " + i);
        }
        for (int v : got) assertEquals(0xff, v >>> 24, "alpha");
    }
}
