package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command line of a JVM a test starts: the test JVM's flags under {@code ./mvnw verify}, none under the measuring profiles. */
@DisplayName("ChildJava: a started JVM gets the test JVM's flags, or none")
class ChildJavaTests {

	@Test
	@DisplayName("test.jvm.flags is read word by word; empty (the measuring profiles) is no flag at all")
	void flagsWordByWord() {
		assertThat(ChildJava.words("")).isEmpty();
		assertThat(ChildJava.words("  ")).isEmpty();
		assertThat(ChildJava.words(" -XX:TieredStopAtLevel=1  -XX:+UseSerialGC ")).containsExactly("-XX:TieredStopAtLevel=1",
				"-XX:+UseSerialGC");
		assertThat(ChildJava.command()).first().isEqualTo(ChildJava.executable());
		assertThat(ChildJava.command()).hasSize(1 + ChildJava.flags().size());
	}

	@Test
	@DisplayName("as a shell template's first words each is single-quoted, a quote inside one kept")
	void shellQuoting() {
		assertThat(ChildJava.quoted("/a b/java")).isEqualTo("'/a b/java'");
		assertThat(ChildJava.quoted("it's")).isEqualTo("'it'\\''s'");
		assertThat(ChildJava.shellCommand()).startsWith("'" + ChildJava.executable() + "'");
	}

	@Test
	@Timeout(60)
	@DisplayName("the shell runs the command as written: the child JVM starts with this run's flags")
	void theShellRunsIt() throws Exception {
		List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", ChildJava.shellCommand() + " -XX:+PrintCommandLineFlags -version"));
		Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(child.getInputStream().readAllBytes());
		assertThat(child.waitFor(50, TimeUnit.SECONDS)).isTrue();
		assertThat(child.exitValue()).as("exit status of %s: %s", command, output).isZero();
		ChildJava.flags().forEach(flag -> assertThat(output).as("the child's flags").contains(flag));
	}
}
