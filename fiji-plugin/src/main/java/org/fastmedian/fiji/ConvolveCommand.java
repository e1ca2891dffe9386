package org.fastmedian.fiji;

import ij.ImagePlus;
import ij.Macro;
import ij.gui.GenericDialog;
import java.util.ArrayList;
import java.util.List;
import org.fastmedian.ConvolveOptions;

/**
 * Plugins &gt; fastmedian &gt; Convolve (fastmedian)...: ImageJ's Process &gt; Filters &gt;
 * Convolve... computed by fastmedian, on the first CUDA device when there is one, else on the
 * CPU. The same dialog and macro keys: the kernel as rows of numbers separated by spaces (a text
 * area, {@code text1=[...]} in a macro, rows separated by "\n"; a macro's kernel on one line is
 * read as a square, as ImageJ does) and {@code normalize}; plus {@code stack}:
 * {@code run("Convolve (fastmedian)...", "text1=[-1 -1 -1\n-1 8 -1\n-1 -1 -1\n] normalize")}.
 *
 * <p>As ImageJ's Convolve: the kernel as written is laid over each pixel, centred on it (its
 * top-left number weighs the pixel up and to the left), so fastmedian's true convolution gets
 * the kernel rotated by 180 degrees, and the result equals {@code fastmedian convolve --kernel}
 * with the rotated mask, bit for bit; a symmetric kernel is its own rotation. Normalize divides
 * by the kernel's sum, and is ignored when the sum is 0 (ImageJ's rule; the default kernel sums
 * to 0). The image's edges are replicated. Sums are in float, one fused multiply-add per kernel
 * number; 8 and 16-bit results are clamped, then rounded to nearest (halves away from zero), so
 * a result can differ from ImageJ's own by one grey level (or in the last bits for 32-bit).
 * Unlike ImageJ, a number that does not parse is an error, not 0. Kernels up to 63 x 63.
 *
 * <p>As ImageJ's Convolve: Preview, in place with Undo for a single image, slice by slice for a
 * stack, a selection limiting the change, 8, 16 and 32-bit and RGB (channel by channel); errors
 * change nothing (see InPlaceCommand). Logs one line per run: backend, device and time.
 */
public class ConvolveCommand extends ConvolutionFilter {
    private static final String TITLE = "Convolve (fastmedian)";
    /** ImageJ's default kernel (a 5 x 5 Laplacian; its sum is 0, so it is not normalized). */
    static final String DEFAULT_KERNEL = "-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 24 -1 -1\n"
            + "-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n";
    private static final String HELP = "Rows of numbers separated by spaces; odd width and height,"
            + " at most " + ConvolveOptions.MAX_MASK_SIZE + ".\n"
            + "Laid over each pixel as written, as ImageJ's Convolve; edges replicated.\n"
            + "Normalize divides by the sum (ignored when the sum is 0).";

    // The dialog's defaults (ImageJ's), kept between interactive runs.
    private static String lastText = DEFAULT_KERNEL;
    private static boolean lastNormalize = true;

    private String text;
    private boolean normalize;
    private Kernel kernel;
    private boolean normalized;

    @Override
    String title() {
        return TITLE;
    }

    @Override
    String describe() {
        String n = normalized ? ", normalized" : kernel.normalizeAsked ? ", not normalized (sum 0)"
                : "";
        return kernel.width + "x" + kernel.height + " kernel" + n;
    }

    @Override
    void addFields(GenericDialog gd, ImagePlus imp) {
        gd.addTextAreas(lastText, null, 10, 30);
        gd.addCheckbox("Normalize Kernel", lastNormalize);
        gd.addMessage(HELP);
    }

    @Override
    void readFields(GenericDialog gd) {
        text = gd.getNextText();
        normalize = gd.getNextBoolean();
        kernel = Kernel.parse(text, Macro.getOptions() != null, normalize);
        normalized = kernel.normalized();
        options = kernel.options();
    }

    @Override
    void remember() {
        lastText = text;
        lastNormalize = normalize;
    }

    /** A kernel as ImageJ's Convolve reads it: width x height numbers, the top row first. */
    static final class Kernel {
        final float[] values;
        final int width, height;
        final boolean normalizeAsked;

        private Kernel(float[] values, int width, int height, boolean normalize) {
            this.values = values;
            this.width = width;
            this.height = height;
            this.normalizeAsked = normalize;
        }

        /**
         * Rows of numbers separated by white space, one row per line, as ImageJ's Convolver
         * decodes its text area; in a macro ({@code macro}), text on one line is a square kernel
         * read row after row (ImageJ's "text1=[1 1 1 1 1 1 1 1 1]" form). Throws
         * IllegalArgumentException with the message to show.
         */
        static Kernel parse(String text, boolean macro, boolean normalize) {
            String trimmed = text == null ? "" : text.trim();
            if (trimmed.isEmpty())
                throw new IllegalArgumentException("The kernel (text1) is empty.");
            List<String[]> rows = new ArrayList<>();
            if (macro && trimmed.indexOf('\n') < 0) {
                String[] words = trimmed.split("\\s+");
                int side = (int) Math.round(Math.sqrt(words.length));
                if (side * side != words.length)
                    throw new IllegalArgumentException("A kernel (text1) on one line must be "
                            + "square, row after row; this one has " + words.length
                            + " numbers.");
                for (int y = 0; y < side; y++) {
                    String[] row = new String[side];
                    System.arraycopy(words, y * side, row, 0, side);
                    rows.add(row);
                }
            } else {
                for (String line : trimmed.split("\n")) {
                    String row = line.trim();
                    if (!row.isEmpty()) rows.add(row.split("\\s+"));
                }
            }
            int width = rows.get(0).length, height = rows.size();
            for (int y = 1; y < height; y++)
                if (rows.get(y).length != width)
                    throw new IllegalArgumentException("Kernel (text1): row " + (y + 1) + " has "
                            + rows.get(y).length + " numbers, the first row " + width + ".");
            int max = ConvolveOptions.MAX_MASK_SIZE;
            if (width % 2 == 0 || height % 2 == 0 || width > max || height > max)
                throw new IllegalArgumentException("Kernel (text1) must have odd width and "
                        + "height, at most " + max + ". This one is " + width + "x" + height
                        + ".");
            float[] values = new float[width * height];
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) {
                    String word = rows.get(y)[x];
                    float v;
                    try {
                        v = (float) Double.parseDouble(word);
                    } catch (NumberFormatException e) {
                        v = Float.NaN;
                    }
                    if (!Float.isFinite(v))
                        throw new IllegalArgumentException("Kernel (text1): '" + word
                                + "' in row " + (y + 1) + " is not a finite number.");
                    values[y * width + x] = v;
                }
            return new Kernel(values, width, height, normalize);
        }

        /** Normalize was asked for and the sum (in double, as ImageJ sums) is not 0. */
        boolean normalized() {
            double sum = 0;
            for (float v : values) sum += v;
            return normalizeAsked && sum != 0;
        }

        /**
         * The library's options: the kernel rotated by 180 degrees (reversed, row after row),
         * since the library convolves (flips the mask) where ImageJ lays it over the image as
         * written.
         */
        ConvolveOptions options() {
            float[] rotated = new float[values.length];
            for (int i = 0; i < values.length; i++) rotated[i] = values[values.length - 1 - i];
            return ConvolveOptions.kernel(rotated, width, height).normalize(normalized());
        }
    }
}
