package org.fastmedian.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.ByteProcessor;
import java.util.Random;
import org.fastmedian.Median3DOptions;
import org.junit.jupiter.api.Test;

/**
 * Median3DCommand.filter in this JVM (no ImageJ window): Esc (the stop supplier) is asked
 * before every volume but the first of a hyperstack; saying stop gives no result.
 */
class Median3DCommandTest {
    @Test
    void stopsBetweenVolumes() {
        ImageStack stack = new ImageStack(11, 9);
        Random random = new Random(4);
        for (int i = 0; i < 2 * 3 * 2; i++) {  // 2 channels, 3 slices, 2 frames
            byte[] pixels = new byte[11 * 9];
            random.nextBytes(pixels);
            stack.addSlice(new ByteProcessor(11, 9, pixels));
        }
        ImagePlus imp = new ImagePlus("volumes", stack);
        imp.setDimensions(2, 3, 2);
        int[] asked = {0};
        assertNull(Median3DCommand.filter(imp, Median3DOptions.ellipsoid(1), () -> ++asked[0] == 2));
        assertEquals(2, asked[0]);
        asked[0] = 0;
        assertNotNull(Median3DCommand.filter(imp, Median3DOptions.ellipsoid(1), () -> ++asked[0] < 0));
        assertEquals(3, asked[0]);  // four volumes: asked before the second, third and fourth
    }
}
