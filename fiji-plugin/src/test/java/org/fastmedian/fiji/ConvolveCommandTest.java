package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.fastmedian.ConvolveOptions;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.fiji.ConvolveCommand.Kernel;
import org.fastmedian.fiji.GaussianBlurCommand.Blur;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ConvolveCommand and GaussianBlurCommand in this JVM (no ImageJ window): how the kernel text is
 * read (as ImageJ's Convolver reads it), ImageJ's orientation and normalisation rule, what
 * sigma means, and each pixel type (RGB channel by channel) giving what the binding gives.
 */
class ConvolveCommandTest {
    private static final int W = 41, H = 29, N = W * H;

    @Test
    void rowsSeparatedByNewlinesAndAnyWhiteSpace() {
        Kernel k = Kernel.parse("\n 1\t2  3 \r\n\n4 5 6.5\r\n-7 8e0 +9\n\n", false, false);
        assertEquals(3, k.width);
        assertEquals(3, k.height);
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6.5f, -7, 8, 9}, k.values);
    }

    @Test
    void oneLineInAMacroIsASquareElseARow() {
        Kernel square = Kernel.parse("1 2 3 4 5 6 7 8 9", true, false);
        assertEquals(3, square.width);
        assertEquals(3, square.height);
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, square.values);
        Kernel row = Kernel.parse("1 2 3 4 5 6 7 8 9", false, false);
        assertEquals(9, row.width);
        assertEquals(1, row.height);
    }

    @Test
    void badKernelsAreErrorsSayingWhy() {
        String[][] cases = {  // text, message
            {"", "The kernel (text1) is empty."},
            {" \n ", "The kernel (text1) is empty."},
            {"1 1\n1 1", "Kernel (text1) must have odd width and height, at most 63. This one is 2x2."},
            {"1 1 1\n1 1\n1 1 1", "Kernel (text1): row 2 has 2 numbers, the first row 3."},
            {"1 x 1", "Kernel (text1): 'x' in row 1 is not a finite number."},
            {"1 1 1\n1 1e39 1\n1 1 1", "Kernel (text1): '1e39' in row 2 is not a finite number."},
            {"1 NaN 1", "Kernel (text1): 'NaN' in row 1 is not a finite number."},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Kernel.parse(c[0], false, true), c[0]);
            assertEquals(c[1], e.getMessage());
        }
    }

    @Test
    void oneLineInAMacroMustBeSquareAndSidesAtMost63() {
        assertThrows(IllegalArgumentException.class, () -> Kernel.parse("1 2 3 4 5", true, false));
        String row = "1 ".repeat(65);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Kernel.parse(row, false, false));
        assertTrue(e.getMessage().endsWith("This one is 65x1."), e.getMessage());
        assertEquals(63, Kernel.parse("1 ".repeat(63), false, false).width);
    }

    @Test
    void normalizeIsIgnoredWhenTheSumIs0AsInImageJ() {
        assertFalse(Kernel.parse(ConvolveCommand.DEFAULT_KERNEL, false, true).normalized());
        assertFalse(Kernel.parse(ConvolveCommand.DEFAULT_KERNEL, false, true).options()
                .isNormalized());
        assertTrue(Kernel.parse("1 2 1", false, true).options().isNormalized());
        assertFalse(Kernel.parse("1 2 1", false, false).options().isNormalized());
    }

    // ImageJ's Convolve lays the kernel over the image as written: an impulse comes out as the
    // kernel turned by 180 degrees (its top-left number weighs the pixel up and to the left).
    @Test
    void theKernelIsLaidOverTheImageAsImageJDoes() {
        float[] impulse = new float[7 * 5];
        impulse[2 * 7 + 3] = 1;
        Kernel k = Kernel.parse("1 2 3\n4 5 6\n7 8 9", false, false);
        float[] out = new float[impulse.length];
        FastMedian.convolve(impulse, out, 7, 5, 1, k.options());
        float[] around = new float[9];
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 3; x++) around[y * 3 + x] = out[(1 + y) * 7 + 2 + x];
        assertArrayEquals(new float[] {9, 8, 7, 6, 5, 4, 3, 2, 1}, around);
        assertArrayEquals(new float[] {9, 8, 7, 6, 5, 4, 3, 2, 1}, k.options().mask());
    }

    @Test
    void eachPixelTypeAsTheBinding() {
        Random rnd = new Random(4);
        ConvolveOptions o = Kernel.parse("1 -2 0.5\n3 1 1\n0 2 -1.25", false, true).options();
        byte[] b = new byte[N];
        rnd.nextBytes(b);
        byte[] wantB = new byte[N];
        FastMedian.convolve(b, wantB, W, H, 1, o);
        assertArrayEquals(wantB, (byte[]) ConvolutionFilter.filter(b, W, H, o).pixels);
        short[] s = new short[N];
        for (int i = 0; i < N; i++) s[i] = (short) rnd.nextInt(65536);
        short[] wantS = new short[N];
        FastMedian.convolve(s, wantS, W, H, 1, o);
        assertArrayEquals(wantS, (short[]) ConvolutionFilter.filter(s, W, H, o).pixels);
        float[] f = new float[N];
        for (int i = 0; i < N; i++) f[i] = (float) rnd.nextGaussian();
        float[] wantF = new float[N];
        FastMedian.convolve(f, wantF, W, H, 1, o);
        assertArrayEquals(wantF, (float[]) ConvolutionFilter.filter(f, W, H, o).pixels);
    }

    @Test
    void rgbChannelByChannel() {
        Random rnd = new Random(3);
        int[] rgb = new int[N];
        for (int i = 0; i < N; i++) rgb[i] = 0xff000000 | rnd.nextInt(1 << 24);
        ConvolveOptions o = Blur.of(1.5, 1, 1).options;
        int[] got = (int[]) ConvolutionFilter.filter(rgb, W, H, o).pixels;
        for (int shift = 0; shift <= 16; shift += 8) {
            byte[] src = new byte[N], want = new byte[N];
            for (int i = 0; i < N; i++) src[i] = (byte) (rgb[i] >> shift);
            FastMedian.gaussianBlur(src, want, W, H, 1, 1.5);
            for (int i = 0; i < N; i++)
                assertEquals(want[i] & 0xff, (got[i] >> shift) & 0xff, "shift " + shift + " at " + i);
        }
        for (int v : got) assertEquals(0xff, v >>> 24, "alpha");
    }

    @Test
    void sigmaInPixelsIsTheLibrarysGaussian() {
        Blur b = Blur.of(2, 1, 1);
        assertEquals(2.0, b.options.sigma());
        assertEquals(17, b.row.length);  // radius int(4 x 2 + 0.5) = 8
        assertSame(b.row, b.column);
    }

    // Scaled units: sigma / pixel width along x, sigma / pixel height along y.
    @Test
    void scaledSigmaPerAxis() {
        Blur b = Blur.of(2, 0.5, 1);
        assertEquals(4.0, b.sigmaX);
        assertEquals(2.0, b.sigmaY);
        assertEquals(33, b.row.length);
        assertEquals(17, b.column.length);
        float[] f = new float[N];
        Random rnd = new Random(5);
        for (int i = 0; i < N; i++) f[i] = rnd.nextFloat();
        float[] want = new float[N];
        FastMedian.convolve(f, want, W, H, 1, ConvolveOptions.separable(
                ConvolveOptions.gaussianMask(4), ConvolveOptions.gaussianMask(2)));
        assertArrayEquals(want, (float[]) ConvolutionFilter.filter(f, W, H, b.options).pixels);
    }

    @ParameterizedTest
    @CsvSource({"0, 1", "-1, 1", "200, 1", "2, 0.01"})
    void sigmaOutOfRangeIsTheLibrarysError(double sigma, double pixelWidth) {
        FastMedianException e = assertThrows(FastMedianException.class,
                () -> Blur.of(sigma, pixelWidth, 1));
        assertTrue(e.getMessage().startsWith("sigma must be a number above 0 and at most 127"),
                e.getMessage());
    }
}
