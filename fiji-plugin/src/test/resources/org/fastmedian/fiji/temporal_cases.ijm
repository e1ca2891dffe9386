// Case functions for the macro TemporalMacroTest writes. The test compares the saved results
// with the CLI's afterwards, and the original saved after the run with the input; here each case
// prints "RAN <case>: <title of the new image>", or "FAIL <case>: <why>" when the command did not
// make one new image.

// Makes the inputs from the 16-bit movie: 8-bit, 32-bit with NaN and infinities, RGB (and its
// three channels), and two hyperstacks (channels x slices x time points, channels x slices).
function prepareInputs(movie, dir) {
    open(movie);
    run("8-bit");
    saveAs("Tiff", dir + "in_u8.tif");
    rename("red");
    run("Duplicate...", "title=green duplicate");
    run("Invert", "stack");
    selectImage("red");
    run("Duplicate...", "title=blue duplicate");
    run("Reverse");
    run("Merge Channels...", "c1=red c2=green c3=blue");
    saveAs("Tiff", dir + "in_rgb.tif");
    run("Split Channels");
    colours = newArray("red", "green", "blue");
    for (i = 0; i < 3; i++) {
        selectImage("in_rgb.tif (" + colours[i] + ")");
        saveAs("Tiff", dir + "in_rgb_" + colours[i] + ".tif");
    }
    close("*");

    open(movie);
    run("32-bit");
    for (z = 1; z <= nSlices; z++) {
        setSlice(z);
        setPixel(z, 2 * z, NaN);         // NaN in one pixel of every frame
        setPixel(z + 1, 2 * z, 1 / 0);   // and +Inf, -Inf, -0 beside it
        setPixel(z + 2, 2 * z, -1 / 0);
        setPixel(z + 3, 2 * z, -0);
        if (z % 3 != 0)
            setPixel(100, 100, NaN);     // a pixel NaN in most frames
    }
    saveAs("Tiff", dir + "in_f32.tif");
    close();

    open(movie);
    run("Stack to Hyperstack...", "order=xyczt(default) channels=2 slices=3 frames=8 "
        + "display=Grayscale");
    saveAs("Tiff", dir + "in_hyper_czt.tif");
    close();
    open(movie);
    run("Stack to Hyperstack...", "order=xyczt(default) channels=2 slices=24 frames=1 "
        + "display=Grayscale");
    saveAs("Tiff", dir + "in_hyper_cz.tif");
    close();
}

// Runs the command on the image at `input`, saves the new image at `output` and the original,
// after the run, beside it (`output` + ".original.tif").
function temporal(label, input, options, output) {
    open(input);
    original = getImageID();
    images = nImages;
    run("Temporal Median (fastmedian)...", options);
    if (nImages != images + 1 || getImageID() == original) {
        print("FAIL " + label + ": no new image (" + nImages + " images)");
    } else {
        print("RAN " + label + ": " + getTitle());
        saveAs("Tiff", output);
        selectImage(original);
        saveAs("Tiff", output + ".original.tif");
    }
    close("*");
}
