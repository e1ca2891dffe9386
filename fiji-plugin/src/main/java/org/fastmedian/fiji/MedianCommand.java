package org.fastmedian.fiji;

import ij.ImagePlus;
import ij.gui.GenericDialog;
import org.fastmedian.FastMedian;
import org.fastmedian.MedianOptions;
import org.fastmedian.RunInfo;

/**
 * Plugins &gt; fastmedian &gt; Median (fastmedian)...: ImageJ's Process &gt; Filters &gt; Median
 * (the same circular mask, the same edge handling, the same macro keys {@code radius=R [stack]})
 * computed by fastmedian, on the first CUDA device when there is one, else on the CPU. As
 * ImageJ's Median: Preview, in place with Undo, slice by slice for a stack, a selection
 * filtered alone (reading its neighbours outside it), 8, 16 and 32-bit images and RGB images
 * channel by channel (see InPlaceCommand). Logs one line per run: backend, device and time.
 */
public class MedianCommand extends InPlaceCommand {
    private static final String TITLE = "Median (fastmedian)";
    private static double lastRadius = 2;  // the dialog's default, kept between interactive runs

    private double radius;

    @Override
    String title() {
        return TITLE;
    }

    @Override
    String describe() {
        return "radius " + number(radius);
    }

    @Override
    void addFields(GenericDialog gd, ImagePlus imp) {
        gd.addNumericField("Radius", lastRadius, 1, 6, "pixels");
    }

    @Override
    void readFields(GenericDialog gd) {
        radius = gd.getNextNumber();
        // The range is checked by the library, whose message states it.
        if (gd.invalidNumber()) throw new IllegalArgumentException("Radius is not a number.");
    }

    @Override
    void remember() {
        lastRadius = radius;
    }

    /** The median of one slice in a new array of its type; the border replicated, as ImageJ's. */
    @Override
    SliceFilter.Filtered filter(Object pixels, int width, int height) {
        MedianOptions options = MedianOptions.circle(radius);
        return SliceFilter.filter(pixels, width * height, new SliceFilter.Calls() {
            @Override
            public RunInfo run(byte[] in, byte[] out) {
                return FastMedian.median(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(short[] in, short[] out) {
                return FastMedian.median(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(float[] in, float[] out) {
                return FastMedian.median(in, out, width, height, 1, options);
            }
        });
    }
}
