package io.drover.core.driver.testdrivers;

/** An extension-index entry that is not a TaskDriver. */
public final class NotADriver {}
