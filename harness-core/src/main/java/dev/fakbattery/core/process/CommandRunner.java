package dev.fakbattery.core.process;

import java.util.List;

import org.apiguardian.api.API;

/**
 * Runs one command line (an argv, never a shell string). Tests inject recorded results; a serving
 * node uses {@link ProcessCommandRunner}.
 *
 * @since 0.1
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@FunctionalInterface
public interface CommandRunner {

	/** Runs {@code argv} to completion; never throws for a failing or missing command. */
	CommandResult run(List<String> argv);
}
