package org.fastmedian.fiji;

import org.fastmedian.ConvolveOptions;
import org.fastmedian.FastMedian;
import org.fastmedian.RunInfo;

/**
 * What the convolution commands (Convolve, Gaussian Blur) share: each slice convolved with the
 * options their dialog made, the image's edges replicated (ImageJ's edge handling); the rest as
 * every in-place command (InPlaceCommand).
 */
abstract class ConvolutionFilter extends InPlaceCommand {
    /** Set by the subclass's readFields. */
    ConvolveOptions options;

    @Override
    SliceFilter.Filtered filter(Object pixels, int width, int height) {
        return filter(pixels, width, height, options);
    }

    /** The convolution of one slice in a new array of its type (RGB channel by channel). */
    static SliceFilter.Filtered filter(Object pixels, int width, int height, ConvolveOptions options) {
        return SliceFilter.filter(pixels, width * height, new SliceFilter.Calls() {
            @Override
            public RunInfo run(byte[] in, byte[] out) {
                return FastMedian.convolve(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(short[] in, short[] out) {
                return FastMedian.convolve(in, out, width, height, 1, options);
            }

            @Override
            public RunInfo run(float[] in, float[] out) {
                return FastMedian.convolve(in, out, width, height, 1, options);
            }
        });
    }
}
