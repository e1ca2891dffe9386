package org.fastmedian.fiji;

import ij.ImagePlus;
import ij.Macro;
import ij.gui.GenericDialog;
import ij.measure.Calibration;
import ij.plugin.filter.PlugInFilterRunner;
import org.fastmedian.ConvolveOptions;
import org.fastmedian.FastMedianException;

/**
 * Plugins &gt; fastmedian &gt; Gaussian Blur (fastmedian)...: ImageJ's Process &gt; Filters &gt;
 * Gaussian Blur... computed by fastmedian, on the first CUDA device when there is one, else on
 * the CPU; the same bits as {@code fastmedian convolve --gaussian SIGMA} on the command line.
 * The same macro keys: {@code sigma=S [scaled] [stack]} ({@code radius=}, ImageJ's old name, is
 * read as {@code sigma=}, as ImageJ's own does).
 *
 * <p>The mask is scipy.ndimage.gaussian_filter's, not ImageJ's: radius int(4 sigma + 0.5)
 * (truncate 4.0), weights exp(-x^2 / (2 sigma^2)) divided by their sum, applied along y, then
 * along x, summed in float. ImageJ's own Gaussian Blur sizes its kernel by an accuracy rule of
 * its own (and downscales for large sigma), so the results differ slightly (a grey level here
 * and there for 8-bit images). Sigma in pixels, above 0 and at most 127; with {@code scaled}
 * (a calibrated image only) in the image's units, divided by the pixel width along x and by the
 * pixel height along y. The image's edges are replicated (ImageJ's edge handling); 8 and 16-bit
 * results are clamped, then rounded to nearest (halves away from zero).
 *
 * <p>As ImageJ's Gaussian Blur: Preview, in place with Undo for a single image, slice by slice
 * for a stack, a selection limiting the change, 8, 16 and 32-bit and RGB (channel by channel);
 * errors change nothing (see InPlaceCommand). Logs one line per run: backend, device and time.
 */
public class GaussianBlurCommand extends ConvolutionFilter {
    private static final String TITLE = "Gaussian Blur (fastmedian)";
    private static final String HELP = "scipy's Gaussian mask (truncate 4.0): radius int(4 sigma"
            + " + 0.5),\nnot ImageJ's, so results differ slightly from Gaussian Blur...\n"
            + "Sigma above 0, at most " + number(ConvolveOptions.MAX_GAUSSIAN_SIGMA)
            + " pixels. Edges replicated.";

    // The dialog's defaults (ImageJ's), kept between interactive runs.
    private static double lastSigma = 2;
    private static boolean lastScaled = false;

    private Calibration cal;
    private boolean calibrated;  // the Scaled Units checkbox is there
    private String unit;
    private double sigma;
    private boolean scaled;
    private Blur blur;

    @Override
    String title() {
        return TITLE;
    }

    @Override
    String describe() {
        String size = blur.row.length + "x" + blur.column.length + " separable";
        if (blur.sigmaX == sigma && blur.sigmaY == sigma)
            return "sigma " + number(sigma) + " (" + size + ")";
        return "sigma " + number(sigma) + " " + unit + " (" + number(blur.sigmaX) + " x "
                + number(blur.sigmaY) + " pixels, " + size + ")";
    }

    @Override
    public int showDialog(ImagePlus imp, String command, PlugInFilterRunner pfr) {
        String macro = Macro.getOptions();
        if (macro != null && macro.contains("radius="))  // as ImageJ's Gaussian Blur
            Macro.setOptions(macro.replaceAll("radius=", "sigma="));
        return super.showDialog(imp, command, pfr);
    }

    @Override
    void addFields(GenericDialog gd, ImagePlus imp) {
        cal = imp.getCalibration();
        calibrated = cal != null && !cal.getUnits().equals("pixels");
        unit = calibrated ? cal.getUnits() : "pixels";
        gd.addNumericField("Sigma (Radius):", lastSigma, 2);
        if (calibrated) gd.addCheckbox("Scaled Units (" + unit + ")", lastScaled);
        gd.addMessage(HELP);
    }

    @Override
    void readFields(GenericDialog gd) {
        sigma = gd.getNextNumber();
        scaled = calibrated && gd.getNextBoolean();
        if (gd.invalidNumber()) throw new IllegalArgumentException("Sigma is not a number.");
        try {
            blur = scaled ? Blur.of(sigma, cal.pixelWidth, cal.pixelHeight) : Blur.of(sigma, 1, 1);
        } catch (FastMedianException e) {  // the library states sigma's range
            throw new IllegalArgumentException(e.getMessage());
        }
        options = blur.options;
    }

    @Override
    void remember() {
        lastSigma = sigma;
        if (calibrated) lastScaled = scaled;
    }

    /** The Gaussian of sigma / pixelWidth along x and sigma / pixelHeight along y. */
    static final class Blur {
        final double sigmaX, sigmaY;
        final float[] row, column;
        final ConvolveOptions options;

        private Blur(double sigmaX, double sigmaY) {
            this.sigmaX = sigmaX;
            this.sigmaY = sigmaY;
            row = ConvolveOptions.gaussianMask(sigmaX);  // throws for a sigma out of range
            column = sigmaY == sigmaX ? row : ConvolveOptions.gaussianMask(sigmaY);
            options = sigmaY == sigmaX ? ConvolveOptions.gaussian(sigmaX)
                    : ConvolveOptions.separable(row, column);
        }

        static Blur of(double sigma, double pixelWidth, double pixelHeight) {
            return new Blur(sigma / pixelWidth, sigma / pixelHeight);
        }
    }
}
