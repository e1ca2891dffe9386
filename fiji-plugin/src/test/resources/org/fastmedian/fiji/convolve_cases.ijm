// Case functions for the macro ConvolveMacroTest writes. The test compares the saved results
// with the CLI's (and with ImageJ's own Convolve) afterwards; here each case prints "RAN <case>:
// <title>", or "FAIL <case>: <why>" when the command did not change the image in place.

// Makes an RGB image from the 8-bit embryos image (red: the image, green: inverted, blue:
// flipped) and saves it and its three channels.
function prepareInputs(grey, dir) {
    open(grey);
    rename("red");
    run("Duplicate...", "title=green");
    run("Invert");
    selectImage("red");
    run("Duplicate...", "title=blue");
    run("Flip Horizontally");
    run("Merge Channels...", "c1=red c2=green c3=blue");
    saveAs("Tiff", dir + "in_rgb.tif");
    run("Split Channels");
    colours = newArray("red", "green", "blue");
    for (i = 0; i < 3; i++) {
        selectImage("in_rgb.tif (" + colours[i] + ")");
        saveAs("Tiff", dir + "in_rgb_" + colours[i] + ".tif");
    }
    close("*");
}

// Runs `command` on the image at `input` (with the rectangle x, y, w, h selected when w > 0)
// and saves the image, changed in place, at `output`.
function filter(label, command, input, options, output, x, y, w, h) {
    open(input);
    original = getImageID();
    images = nImages;
    if (w > 0)
        makeRectangle(x, y, w, h);
    run(command, options);
    if (nImages != images || getImageID() != original) {
        print("FAIL " + label + ": " + (nImages - images) + " new image(s), not in place");
    } else {
        print("RAN " + label + ": " + getTitle());
        run("Select None");
        saveAs("Tiff", output);
    }
    close("*");
}
