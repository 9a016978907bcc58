package io.drover.core.artifact;

import java.util.Locale;
import java.util.Optional;

/** The archives go-getter unpacks that Drover does, told by the file name (or forced by {@code archive = "..."}). */
enum ArchiveType {
    TAR_GZ(".tar.gz", ".tgz"),
    TAR_BZ2(".tar.bz2", ".tbz2"),
    TAR(".tar"),
    ZIP(".zip"),
    GZ(".gz"),
    BZ2(".bz2");

    private final String[] suffixes;

    ArchiveType(String... suffixes) {
        this.suffixes = suffixes;
    }

    /** By name: the longest suffix wins (x.tar.gz is a tar.gz, not a gz). */
    static Optional<ArchiveType> of(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        for (ArchiveType t : values()) {
            for (String s : t.suffixes) {
                if (n.endsWith(s)) {
                    return Optional.of(t);
                }
            }
        }
        return Optional.empty();
    }

    /** An {@code archive} option naming a type ("tar.gz", "tgz", "zip" ...). */
    static Optional<ArchiveType> forced(String option) {
        return of("x." + option);
    }

    /** The file name once a single-file compression is removed (app.jar.gz -> app.jar). */
    String strip(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        for (String s : suffixes) {
            if (n.endsWith(s)) {
                return fileName.substring(0, fileName.length() - s.length());
            }
        }
        return fileName;
    }
}
