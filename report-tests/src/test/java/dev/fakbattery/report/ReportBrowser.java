package dev.fakbattery.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium (the system's, driven by the system's chromedriver: Selenium Manager is never asked to
 * download anything) over one Allure report file, with the few moves the checks need: open a page, wait for
 * text, expand a tree, read what is visible, save a screenshot.
 */
final class ReportBrowser implements AutoCloseable {

	private final ChromeDriver driver;
	private final Path report;

	ReportBrowser(Path chromium, Path chromedriver, Path report, Path profile) {
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium.toFile());
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
				"--window-size=1280,900");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
				.usingAnyFreePort()
				.build();
		this.driver = new ChromeDriver(service, options);
		this.report = report;
	}

	/** Opens the report at {@code page} ({@code ""} for Overview, {@code "behaviors"}, ...) and waits for {@code text}. */
	void open(String page, String text) {
		driver.get(report.toUri() + (page.isEmpty() ? "" : "#" + page));
		waitFor(text);
	}

	/** Waits up to 30 s for {@code text} (any case: titles are shown in capitals) to be visible on the page. */
	void waitFor(String text) {
		new WebDriverWait(driver, Duration.ofSeconds(30))
				.withMessage(() -> "[" + text + "] never became visible on " + driver.getCurrentUrl()
						+ "; visible: " + visibleText())
				.until(d -> visibleText().toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT)));
	}

	/** The text a reader sees (hidden elements excluded). */
	String visibleText() {
		return driver.findElement(By.tagName("body")).getText();
	}

	/** The visible text of {@code selector}'s first match. */
	String text(String selector) {
		return driver.findElement(By.cssSelector(selector)).getText();
	}

	List<WebElement> all(String selector) {
		return driver.findElements(By.cssSelector(selector));
	}

	void click(String selector) {
		((JavascriptExecutor) driver).executeScript("arguments[0].click();", driver.findElement(By.cssSelector(selector)));
	}

	/**
	 * Expands the tree under the top-level node {@code name}, down to its leaves when {@code deep}. The tree re-renders on
	 * each click, so the next closed node is looked up again every time.
	 */
	void expand(String name, boolean deep) {
		By top = By.xpath("//div[contains(concat(' ', @class, ' '), ' node ')][div[contains(@class, 'node__title')]"
				+ "/div[@class='node__name' and normalize-space()='" + name + "']]");
		By closed = By.xpath(".//div[contains(concat(' ', @class, ' '), ' node ') and not(contains(@class, 'node__leaf'))"
				+ " and not(contains(@class, 'node__expanded'))]/div[contains(@class, 'node__title')]");
		for (int clicks = 0; clicks < 500; clicks++) {
			WebElement node = driver.findElement(top);
			Optional<WebElement> next = !node.getAttribute("class").contains("node__expanded")
					? Optional.of(node.findElement(By.xpath("./div[contains(@class, 'node__title')]")))
					: deep ? node.findElements(closed).stream().filter(WebElement::isDisplayed).findFirst() : Optional.empty();
			if (next.isEmpty()) {
				return;
			}
			((JavascriptExecutor) driver).executeScript("arguments[0].click();", next.get());
		}
		throw new AssertionError("the tree under [" + name + "] did not finish expanding after 500 clicks");
	}

	/** Expands the first child of the top-level node {@code name} and returns that child's name. */
	String expandFirstChild(String name) {
		By child = By.xpath("//div[contains(concat(' ', @class, ' '), ' node ')][div[contains(@class, 'node__title')]"
				+ "/div[@class='node__name' and normalize-space()='" + name
				+ "']]/div[@class='node__children']/div[contains(@class, 'node')]"
				+ "/div[contains(@class, 'node__title')]");
		WebElement title = driver.findElement(child);
		String childName = title.findElement(By.className("node__name")).getText();
		((JavascriptExecutor) driver).executeScript("arguments[0].click();", title);
		return childName;
	}

	/** Clicks the first visible tree leaf whose name contains {@code name} and waits for its page. */
	void openLeaf(String name) {
		WebElement leaf = driver.findElements(By.cssSelector("a.node__leaf"))
				.stream()
				.filter(l -> l.isDisplayed() && l.getText().contains(name))
				.findFirst()
				.orElseThrow(
						() -> new AssertionError("no visible tree leaf named [" + name + "] on " + driver.getCurrentUrl() + "; visible: "
								+ visibleText()));
		((JavascriptExecutor) driver).executeScript("arguments[0].click();", leaf);
		new WebDriverWait(driver, Duration.ofSeconds(30))
				.withMessage(() -> "the page of [" + name + "] never opened; visible: " + visibleText())
				.until(d -> d.findElements(By.cssSelector(".test-result-execution__title")).stream().anyMatch(WebElement::isDisplayed));
	}

	/** Saves what a 1280-pixel-wide window {@code height} pixels tall shows. */
	void screenshot(Path target, int height) {
		driver.manage().window().setSize(new Dimension(1280, height));
		try {
			Files.createDirectories(target.getParent());
			Files.write(target, driver.getScreenshotAs(OutputType.BYTES));
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not save the screenshot " + target, e);
		}
		finally {
			driver.manage().window().setSize(new Dimension(1280, 900));
		}
	}

	WebDriver driver() {
		return driver;
	}

	@Override
	public void close() {
		driver.quit();
	}
}
