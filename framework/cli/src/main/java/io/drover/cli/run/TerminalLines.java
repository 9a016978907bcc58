package io.drover.cli.run;

import java.util.List;

/**
 * ANSI text that redraws a block of lines in place on a terminal: moves the cursor up over the block drawn
 * last time, then rewrites each line (clearing its rest). Pure.
 */
final class TerminalLines {
    private static final String ESC = "\u001b[";
    private static final String CLEAR_LINE = ESC + "2K";

    private TerminalLines() {}

    /**
     * @param previouslyDrawn how many lines the last redraw printed (the cursor sits on the line below them)
     * @param lines the new block; never fewer lines than before (allocations only get added)
     * @param width terminal width; longer lines are cut so that they do not wrap and break the cursor
     *     arithmetic; 0 or less: no limit
     */
    static String redraw(int previouslyDrawn, List<String> lines, int width) {
        StringBuilder sb = new StringBuilder();
        if (previouslyDrawn > 0) {
            sb.append(ESC).append(previouslyDrawn).append('A');
        }
        for (String line : lines) {
            String shown = width > 1 && line.length() >= width ? line.substring(0, width - 1) : line;
            sb.append('\r').append(CLEAR_LINE).append(shown).append('\n');
        }
        return sb.toString();
    }
}
