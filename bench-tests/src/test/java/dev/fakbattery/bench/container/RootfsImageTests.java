package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("rootfs image: FROM scratch, tagged by its content, the libraries ldd names")
class RootfsImageTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("ldd: each library at the path it names, the loader included, vdso left out")
	void lddDynamic() {
		String output = """
				\tlinux-vdso.so.1 (0x00007ffd1b5f2000)
				\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f0b6a200000)
				\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0b69e00000)
				\t/lib64/ld-linux-x86-64.so.2 (0x00007f0b6a6d7000)
				""";
		assertThat(RootfsImage.parseLdd(Path.of("/bin/x"), output, 0)).containsExactly(
				Path.of("/lib/x86_64-linux-gnu/libstdc++.so.6"), Path.of("/lib/x86_64-linux-gnu/libc.so.6"),
				Path.of("/lib64/ld-linux-x86-64.so.2"));
	}

	@Test
	@DisplayName("ldd: a static binary needs nothing")
	void lddStatic() {
		assertThat(RootfsImage.parseLdd(Path.of("/bin/x"), "\tnot a dynamic executable\n", 1)).isEmpty();
		assertThat(RootfsImage.parseLdd(Path.of("/bin/x"), "\tstatically linked\n", 0)).isEmpty();
	}

	@Test
	@DisplayName("ldd: a library not found, or ldd failing, is an error naming it")
	void lddMissing() {
		assertThatThrownBy(() -> RootfsImage.parseLdd(Path.of("/bin/x"), "\tlibfoo.so.1 => not found\n", 0))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("ldd /bin/x: libfoo.so.1 => not found. Fix: install the library");
		assertThatThrownBy(() -> RootfsImage.parseLdd(Path.of("/bin/x"), "ldd: /bin/x: No such file or directory\n", 1))
				.isInstanceOf(IllegalStateException.class)
				.hasMessage("ldd /bin/x failed (exit 1): ldd: /bin/x: No such file or directory");
	}

	@Test
	@DisplayName("the tag is the content's hash: same bytes same tag, one changed byte another")
	void tagIsContentHash() throws IOException {
		Path model = Files.write(dir.resolve("m.gguf"), new byte[]{ 1, 2, 3 });
		RootfsImage first = RootfsImage.builder("fak-battery/t").file("/models/m.gguf", model).entrypoint("/x").build();
		RootfsImage same = RootfsImage.builder("fak-battery/t").file("/models/m.gguf", model).entrypoint("/x").build();
		assertThat(first.tag()).isEqualTo(same.tag()).matches("fak-battery/t:[0-9a-f]{12}").doesNotEndWith(":latest");
		assertThat(first.tag()).isEqualTo("fak-battery/t:" + first.contentHash().substring(0, 12));
		Files.write(model, new byte[]{ 1, 2, 4 });
		RootfsImage changed = RootfsImage.builder("fak-battery/t").file("/models/m.gguf", model).entrypoint("/x").build();
		assertThat(changed.tag()).isNotEqualTo(first.tag());
		RootfsImage otherEntrypoint = RootfsImage.builder("fak-battery/t").file("/models/m.gguf", model).entrypoint("/y").build();
		assertThat(otherEntrypoint.tag()).isNotEqualTo(changed.tag());
	}

	@Test
	@DisplayName("the build context: a Dockerfile FROM scratch and rootfs/ with every file, folder and parent")
	void context() throws IOException {
		Path model = Files.write(dir.resolve("m.gguf"), new byte[]{ 9, 9 });
		RootfsImage image = RootfsImage.builder("fak-battery/t")
				.file("/models/m.gguf", model)
				.folder("/slots")
				.entrypoint("/bin/sh", "-c")
				.build();
		assertThat(image.dockerfile()).isEqualTo("FROM scratch\nCOPY rootfs/ /\nLABEL dev.fakbattery.rootfs.sha256="
				+ image.contentHash() + "\nENTRYPOINT [\"/bin/sh\", \"-c\"]\n");
		List<String> names = new ArrayList<>();
		try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(image.context()))) {
			for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
				names.add(entry.getName() + (entry.isDirectory() ? "" : " " + entry.getSize()));
			}
		}
		assertThat(names).containsExactly("Dockerfile " + image.dockerfile().length(), "rootfs/models/", "rootfs/slots/",
				"rootfs/models/m.gguf 2");
	}

	@Test
	@DisplayName("an executable brings its libraries and LD_LIBRARY_PATH (this machine's /bin/sh, when ldd is here)")
	void executable() {
		org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/sh")) && onPath("ldd"),
				"no /bin/sh or no ldd on PATH here: the libraries of a dynamic binary cannot be listed");
		RootfsImage image = RootfsImage.builder("fak-battery/t").executable("/bin/sh", Path.of("/bin/sh")).entrypoint("/bin/sh").build();
		assertThat(image.files()).containsKey("/bin/sh");
		if (image.files().size() > 1) {
			assertThat(image.dockerfile()).contains("ENV LD_LIBRARY_PATH=");
			assertThat(image.files().keySet()).anyMatch(path -> path.contains("libc.so"));
		}
	}

	@Test
	@DisplayName("a path in the image must be absolute and plain")
	void badPath() {
		assertThatThrownBy(() -> RootfsImage.builder("r").folder("slots")).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("not an absolute path in the image: slots");
		assertThatThrownBy(() -> RootfsImage.builder("r").build()).hasMessage("image r has no entrypoint");
	}

	static boolean onPath(String command) {
		for (String folder : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
			if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, command))) {
				return true;
			}
		}
		return false;
	}
}
