package dev.fakbattery.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the repository's Markdown (README.md, docs/, experiments/, the module READMEs) leads to a file
 * or folder that exists, and every {@code #anchor} to a heading of its target; the self-tests prove the check fails on a
 * missing file and on a missing anchor, and does not follow what is no link.
 */
@DisplayName("documentation links: every relative link and anchor of the repository's Markdown resolves")
class DocLinkTests {

	@TempDir
	Path tree;

	@Test
	@DisplayName("no relative link of the repository's Markdown is broken")
	void repositoryLinksResolve() {
		Path root = repositoryRoot();
		assertThat(DocLinks.markdownFiles(root)).as("Markdown files under %s", root).contains(root.resolve("README.md"));
		assertThat(DocLinks.broken(root)).as("broken links under %s (fix the link or the target)", root).isEmpty();
	}

	@Test
	@DisplayName("self-test: a link to a missing file is reported with its file, line and target")
	void missingFile() throws IOException {
		write("README.md", "# Top\n\nSee [the rungs](docs/rungs.md).\n");
		assertThat(DocLinks.broken(tree)).containsExactly("README.md:3: link 'docs/rungs.md': no file or folder docs/rungs.md");
	}

	@Test
	@DisplayName("self-test: a link to a heading that does not exist is reported, one that exists is not")
	void missingAnchor() throws IOException {
		write("docs/gateway-cost.md", "# Gateway cost\n\n## The floor: what any gateway costs\n\n## Faults F01..F07\n");
		write("README.md", "[a](docs/gateway-cost.md#the-floor-what-any-gateway-costs) [b](docs/gateway-cost.md#faults-f01f07)\n"
				+ "[c](docs/gateway-cost.md#the-ceiling)\n\n## Here\n\n[d](#here) [e](#there)\n");
		assertThat(DocLinks.broken(tree)).containsExactly(
				"README.md:2: link 'docs/gateway-cost.md#the-ceiling': no heading of docs/gateway-cost.md has the anchor #the-ceiling",
				"README.md:6: link '#there': no heading of README.md has the anchor #there");
	}

	@Test
	@DisplayName("self-test: folders, files up the tree, web links and code are not reported")
	void notBroken() throws IOException {
		write("experiments/soak/soak.json", "{}");
		write("experiments/soak/README.md", "[json](soak.json) [up](../../README.md) [dir](../soak/) [web](https://example.org/x.md)\n\n"
				+ "`[code](missing.md)`\n\n```\n[block](missing.md)\n```\n");
		write("README.md", "[soak](experiments/soak/) ![plot](experiments/soak/soak.json)\n");
		assertThat(DocLinks.broken(tree)).isEmpty();
	}

	@Test
	@DisplayName("self-test: generated output folders are not scanned")
	void generatedSkipped() throws IOException {
		write("experiments/embedded/FINAL-CHECK.md", "[gone](nowhere.md)\n");
		write("bench-tests/target/x.md", "[gone](nowhere.md)\n");
		write("docs/a.md", "[gone](nowhere.md)\n");
		assertThat(DocLinks.broken(tree)).containsExactly("docs/a.md:1: link 'nowhere.md': no file or folder docs/nowhere.md");
	}

	private void write(String relative, String text) throws IOException {
		Path file = tree.resolve(relative);
		Files.createDirectories(file.getParent());
		Files.writeString(file, text);
	}

	/** {@code harness.root.dir} (set by the build), else the nearest folder up from here holding {@code mvnw}. */
	private static Path repositoryRoot() {
		String configured = System.getProperty("harness.root.dir");
		if (configured != null && !configured.isBlank()) {
			return Path.of(configured).toAbsolutePath().normalize();
		}
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isRegularFile(dir.resolve("README.md"))) {
				return dir;
			}
		}
		throw new IllegalStateException("no repository root: set -Dharness.root.dir=PATH (the folder holding mvnw)");
	}
}
