package dev.fakbattery.core.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * The start of the command line of a JVM a test starts (an engine double, a gateway's jar, the standalone kit, a child
 * battery): this JVM's {@code java} and the test JVM's own flags, {@value #FLAGS} (root pom: C1 only and the serial GC
 * under {@code ./mvnw verify}, where the same jar is started a dozen times for a few seconds each and C2's compiling
 * is a third of its CPU; empty under the measuring profiles, where a child starts as its users would start it).
 *
 * <p>No class-data archive: measured (2026-12-04, the engine double with C1), a JVM that writes one as it exits costs
 * 1.30 s of CPU against 0.47, one that maps it 0.41, so a fresh clone's dozen starts of one jar would not earn back the
 * first.
 */
@API(status = API.Status.INTERNAL, since = "0.9")
public final class ChildJava {

	/** The system property (set by the root pom's surefire configuration) holding the flags. */
	public static final String FLAGS = "test.jvm.flags";

	private ChildJava() {
	}

	/** This JVM's {@code java} executable. */
	public static String executable() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	/** The flags of {@value #FLAGS}, word by word; empty under the measuring profiles. */
	public static List<String> flags() {
		return words(System.getProperty(FLAGS, ""));
	}

	static List<String> words(String flags) {
		return Arrays.stream(flags.split(" ")).filter(flag -> !flag.isBlank()).toList();
	}

	/** {@link #executable()} then {@link #flags()}, as the first words of a command. */
	public static List<String> command() {
		List<String> command = new ArrayList<>(List.of(executable()));
		command.addAll(flags());
		return command;
	}

	/** {@link #command()} as the start of a command template run by {@code /bin/sh -c}: each word single-quoted. */
	public static String shellCommand() {
		return command().stream().map(ChildJava::quoted).collect(Collectors.joining(" "));
	}

	static String quoted(String word) {
		return "'" + word.replace("'", "'\\''") + "'";
	}
}
