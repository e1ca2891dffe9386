// Case functions for the macro ImageJMacroTest writes. Each prints one line the test reads:
// "PASS <case>" or "FAIL <case>: <why>". (A case that must fail is run by MacroErrorProbe.)

// Filters one copy of the image with ImageJ's Median and another with the fastmedian command,
// then compares the two pixel for pixel. With rgb, the image is first made RGB (Stack to RGB).
function compare(path, rgb, radius) {
    label = File.getName(path) + rgb + " radius=" + radius;
    open(path);
    if (rgb != "")
        run("Stack to RGB");
    original = getTitle();
    run("Duplicate...", "title=imagej duplicate");
    run("Median...", "radius=" + radius + " stack");
    selectImage(original);
    run("Duplicate...", "title=fastmedian duplicate");
    run("Median (fastmedian)...", "radius=" + radius + " stack");
    if (sameImages(original, "imagej"))
        print("FAIL " + label + ": ImageJ's Median left the image unchanged");
    else if (!sameImages("imagej", "fastmedian"))
        print("FAIL " + label + ": " + firstDifference("imagej", "fastmedian"));
    else
        print("PASS " + label);
    close("*");
}

// As compare, with a selection on both copies ("rectangle" or "oval" x, y, w, h): ImageJ's
// Median changes the selection only, reading the pixels around it. With rgb, the image is
// first made RGB (Stack to RGB: the channels of hela-cells as red, green and blue).
function compareSelection(path, rgb, radius, shape, x, y, w, h) {
    label = File.getName(path) + rgb + " " + shape + " radius=" + radius;
    open(path);
    if (rgb != "")
        run("Stack to RGB");
    original = getTitle();
    run("Duplicate...", "title=imagej duplicate");
    select(shape, x, y, w, h);
    run("Median...", "radius=" + radius + " stack");
    run("Select None");
    selectImage(original);
    run("Duplicate...", "title=fastmedian duplicate");
    select(shape, x, y, w, h);
    run("Median (fastmedian)...", "radius=" + radius + " stack");
    run("Select None");
    if (sameImages(original, "imagej"))
        print("FAIL " + label + ": ImageJ's Median left the image unchanged");
    else if (!sameImages("imagej", "fastmedian"))
        print("FAIL " + label + ": " + firstDifference("imagej", "fastmedian"));
    else
        print("PASS " + label);
    close("*");
}

function select(shape, x, y, w, h) {
    if (shape == "oval")
        makeOval(x, y, w, h);
    else
        makeRectangle(x, y, w, h);
}

// Exact comparison of two stacks: their absolute difference, as 32-bit, must be 0 everywhere.
// Statistics leave NaN out of the pixel count, so a NaN on either side shows as a short count.
function sameImages(a, b) {
    imageCalculator("Difference create 32-bit stack", a, b);
    same = true;
    for (z = 1; z <= nSlices && same; z++) {
        setSlice(z);
        getRawStatistics(count, mean, min, max);
        same = count == getWidth() * getHeight() && max == 0;
    }
    close();
    return same;
}

// Where two stacks first differ, for the failure message.
function firstDifference(a, b) {
    imageCalculator("Difference create 32-bit stack", a, b);
    for (z = 1; z <= nSlices; z++) {
        setSlice(z);
        for (y = 0; y < getHeight(); y++)
            for (x = 0; x < getWidth(); x++)
                if (getPixel(x, y) != 0) {
                    close();
                    return "first difference at slice " + z + " x=" + x + " y=" + y + ": "
                        + a + "=" + valueAt(a, z, x, y) + " " + b + "=" + valueAt(b, z, x, y);
                }
    }
    close();
    return "no nonzero pixel in their difference";
}

function valueAt(title, z, x, y) {
    selectImage(title);
    setSlice(z);
    return d2s(getPixel(x, y), 9);
}
