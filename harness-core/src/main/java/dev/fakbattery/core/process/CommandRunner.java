package dev.fakbattery.core.process;

import java.util.List;

/**
 * Runs one command line (an argv, never a shell string). Tests inject recorded results; a serving
 * node uses {@link ProcessCommandRunner}.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface CommandRunner {

	/** Runs {@code argv} to completion; never throws for a failing or missing command. */
	CommandResult run(List<String> argv);
}
