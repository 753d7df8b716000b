package dev.fakbattery.conformance.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

@DisplayName("the RULES.md generator's command line rewrites the file it is given, and says so")
class RulesMarkdownMainTests {

	@TempDir
	Path dir;

	@Test
	@ResourceLock(Resources.SYSTEM_OUT)
	@DisplayName("given a RULES.md with stale tables it writes the index's tables into it and names the file it wrote")
	void rewritesTheFileItIsGiven() throws Exception {
		Path file = dir.resolve("RULES.md");
		StringBuilder stale = new StringBuilder("# Rules\n\n");
		for (String name : java.util.List.of("wire", "fault", "captured", "client", "evidence", "classes")) {
			stale.append("<!-- rules:").append(name).append(" -->\n| STALE |\n<!-- /rules:").append(name).append(" -->\n\nprose\n");
		}
		Files.writeString(file, stale);

		String printed = printedBy(() -> RulesMarkdown.main(new String[]{ file.toString() }));

		assertThat(Files.readString(file)).isEqualTo(RulesMarkdown.render(stale.toString())).doesNotContain("STALE");
		// concurrent classes that print without the lock may add their own lines to System.out meanwhile
		assertThat(printed.lines()).containsOnlyOnce("wrote the rule tables of " + file.toAbsolutePath())
				.noneMatch(line -> line.startsWith("wrote") && !line.equals("wrote the rule tables of " + file.toAbsolutePath()));
	}

	@Test
	@DisplayName("without an argument it rewrites conformance-tests/RULES.md under the directory it runs in (the repository's root)")
	void defaultsToTheRepositorysFile() {
		assumeTrue(Files.notExists(Path.of("conformance-tests/RULES.md")),
				"the tests run in the repository's root, where the command would rewrite the real RULES.md");

		assertThatThrownBy(() -> RulesMarkdown.main(new String[0])).isInstanceOf(NoSuchFileException.class)
				.hasMessage("conformance-tests/RULES.md");
	}

	private static String printedBy(ThrowingRunnable run) throws Exception {
		PrintStream out = System.out;
		ByteArrayOutputStream captured = new ByteArrayOutputStream();
		System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
		try {
			run.run();
		}
		finally {
			System.setOut(out);
		}
		return captured.toString(StandardCharsets.UTF_8);
	}

	@FunctionalInterface
	interface ThrowingRunnable {
		void run() throws Exception;
	}
}
