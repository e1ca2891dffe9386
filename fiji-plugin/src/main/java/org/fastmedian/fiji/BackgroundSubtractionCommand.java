package org.fastmedian.fiji;

import ij.ImagePlus;
import ij.gui.GenericDialog;
import java.util.Arrays;
import org.fastmedian.BackgroundMethod;
import org.fastmedian.BackgroundOptions;
import org.fastmedian.BackgroundOutput;
import org.fastmedian.FastMedian;
import org.fastmedian.RunInfo;

/**
 * Plugins &gt; fastmedian &gt; Background Subtraction (fastmedian)...: removes uneven
 * illumination or autofluorescence, as ImageJ's Process &gt; Subtract Background... does, with
 * a large-window median as the background instead of a rolling ball; on the first CUDA device
 * when there is one, else on the CPU; the same bits as {@code fastmedian background} on the
 * command line. Macro keys: {@code radius=R window=circle|square method=exact|separable
 * offset=V [create] [stack]}.
 *
 * <p>The window is ImageJ's circle of radius R (Process &gt; Filters &gt; Median's mask), or the
 * square of side 2R + 1 (R a whole number; the CLI's {@code --size 2R+1}). Method exact is the
 * median over the window; separable (squares only) an approximate, faster median: a median of
 * 2R + 1 pixels along y, then along x. The image's edges are replicated (ImageJ's edge
 * handling). Without {@code create}, each pixel becomes pixel - background + offset (the offset
 * rounded and the result clamped for 8 and 16-bit images); with {@code create} ("Create
 * background", as in Subtract Background...) the background itself, and the offset is unused.
 *
 * <p>As ImageJ's own filters (see InPlaceCommand): Preview, the image changed in place (Edit
 * &gt; Undo restores a single image), a stack filtered slice by slice after "Process all N
 * slices?" ({@code stack} in a macro), a selection limiting the change to itself; 8, 16 and
 * 32-bit images, and RGB images channel by channel. Float NaN counts as larger than +Inf, as in the CLI. An error (reported
 * with the parameter at fault) changes nothing. Logs one line per run: backend, device, time.
 */
public class BackgroundSubtractionCommand extends InPlaceCommand {
    private static final String TITLE = "Background Subtraction (fastmedian)";
    private static final String[] WINDOWS = {"circle", "square"};
    private static final String[] METHODS = {"exact", "separable"};

    // The dialog's defaults (Subtract Background's radius of 50), kept between interactive runs.
    private static double lastRadius = 50;
    private static String lastWindow = WINDOWS[0];
    private static String lastMethod = METHODS[0];
    private static double lastOffset = 0;
    private static boolean lastCreate = false;

    private double radius;
    private String window;
    private String method;
    private double offset;
    private boolean create;
    private BackgroundOptions options;

    @Override
    String title() {
        return TITLE;
    }

    @Override
    String describe() {
        String shape = options.isCircle() ? "circle radius " + number(radius)
                : "square " + options.size() + "x" + options.size();
        return shape + ", " + options.method() + ", "
                + (options.output() == BackgroundOutput.SUBTRACT
                        ? "subtract offset " + number(options.offset()) : "create background");
    }

    @Override
    void addFields(GenericDialog gd, ImagePlus imp) {
        gd.addNumericField("Radius", lastRadius, 1, 6, "pixels");
        gd.addChoice("Window", WINDOWS, lastWindow);
        gd.addChoice("Method", METHODS, lastMethod);
        gd.addNumericField("Offset", lastOffset, 1, 8, "(added to image - background)");
        gd.addCheckbox("Create background (don't subtract)", lastCreate);
        gd.addMessage("Square: side 2 x radius + 1. Separable: squares only.");
    }

    @Override
    void readFields(GenericDialog gd) {
        radius = gd.getNextNumber();
        window = gd.getNextChoice();
        method = gd.getNextChoice();
        offset = gd.getNextNumber();
        create = gd.getNextBoolean();
        if (gd.invalidNumber())
            throw new IllegalArgumentException("Radius and offset must be numbers.");
        options = options(radius, window, method, offset, create);
    }

    @Override
    void remember() {
        lastRadius = radius;
        lastWindow = window;
        lastMethod = method;
        lastOffset = offset;
        lastCreate = create;
    }

    /**
     * The options the dialog's values mean; throws IllegalArgumentException with what is wrong
     * with them. The radius's range and the offset are checked by the library, whose messages
     * state them.
     */
    static BackgroundOptions options(double radius, String window, String method, double offset,
            boolean create) {
        // A macro's choice values are not checked by ImageJ.
        if (!Arrays.asList(WINDOWS).contains(window))
            throw new IllegalArgumentException("window must be circle or square, got '" + window
                    + "'");
        if (!Arrays.asList(METHODS).contains(method))
            throw new IllegalArgumentException("method must be exact or separable, got '"
                    + method + "'");
        boolean square = window.equals("square");
        if (method.equals("separable") && !square)
            throw new IllegalArgumentException("method separable needs window=square (a square "
                    + "of side 2 x radius + 1), not a circle");
        BackgroundOptions o;
        if (square) {
            if (radius != Math.rint(radius) || radius < 0 || radius > 511)
                throw new IllegalArgumentException("radius must be a whole number of pixels in "
                        + "0..511 for window=square (a square of side 2 x radius + 1), got "
                        + number(radius));
            o = BackgroundOptions.square(2 * (int) radius + 1);
        } else {
            o = BackgroundOptions.circle(radius);
        }
        o.method(method.equals("separable") ? BackgroundMethod.SEPARABLE : BackgroundMethod.EXACT);
        if (create) o.output(BackgroundOutput.BACKGROUND);
        else o.offset(offset);
        return o;
    }

    @Override
    SliceFilter.Filtered filter(Object pixels, int width, int height) {
        return filter(pixels, width, height, options);
    }

    /** The background output of one slice in a new array of its type (RGB channel by channel). */
    static SliceFilter.Filtered filter(Object pixels, int width, int height,
            BackgroundOptions options) {
        return SliceFilter.filter(pixels, width * height, new SliceFilter.Calls() {
            @Override
            public RunInfo run(byte[] in, byte[] out) {
                return FastMedian.background(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(short[] in, short[] out) {
                return FastMedian.background(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(float[] in, float[] out) {
                return FastMedian.background(in, out, width, height, 1, options);
            }
        });
    }
}
