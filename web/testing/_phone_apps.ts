/**
 * The virtual phone's apps and screens (private to `@sdk/web/testing`): the installed apps, each
 * running app as a page of its own (so it keeps its state in the background) with the activities
 * started in it, the home and recent-apps screens on the system page, and back as Android 12 and
 * later does it.
 *
 * @module
 */

import type { BrowserContext, Page } from "playwright-core";
import { launcherHtml, recentsHtml, type SystemUiApp } from "./_system_ui.ts";
import { dismissKeyboard, keyboardShown } from "./_phone_keyboard.ts";
import { ToolError } from "../_core.ts";

// What the phone's app manager refuses is the device's own answer, as a tool's would be.
const refused = (message: string, cause?: unknown) =>
  new ToolError(message, { tool: "virtual phone", output: message }, { cause });

/** The package name of the simulator's home screen and recent-apps screen. */
export const LAUNCHER_PACKAGE = "com.android.launcher3";
/** Activity of the home screen. */
export const LAUNCHER_ACTIVITY = "com.android.launcher3.Launcher";
/** Activity of the recent-apps screen (part of the launcher, as on Android 10 and later). */
export const RECENTS_ACTIVITY = "com.android.quickstep.RecentsActivity";
/** The built-in browser app that opens web URLs (`VirtualPhone.openUrl`). */
export const BROWSER_PACKAGE = "com.android.chrome";

/** An app installed on the virtual phone. */
export interface SimulatedApp {
  /** The page the app shows when launched (any URL Chromium can open). */
  url: string;
  /** Name on the home screen and in recent apps. Default: the package's last segment. */
  label?: string;
  /** Its launcher activity's class name. Default: `<package>.MainActivity`. */
  activity?: string;
  /**
   * Other activities, by class name (fully qualified, or `.Name` inside the package) -> the page
   * URL they show. Starting one (`launchApp(pkg, activity)`, `am start -n pkg/.Name`) opens its
   * URL on top of the app's history, so back returns to the screen before.
   */
  activities?: Record<string, string>;
}

/** What is on screen: the app in front and its activity. */
export interface ForegroundApp {
  /** Package name ({@link LAUNCHER_PACKAGE} for the home and recent-apps screens). */
  packageName: string;
  /** Fully qualified activity class name. */
  activity: string;
}

interface InstalledApp {
  packageName: string;
  url: string;
  label: string;
  activity: string;
  /** Other activities: fully qualified class name -> URL. */
  activities: Map<string, string>;
}

interface RunningApp {
  app: InstalledApp;
  page: Page;
  /** Navigation entry index right after launch: back at this index leaves the app. */
  rootIndex: number;
  /** Activities started, bottom first, with the navigation entry index each one began at. */
  stack: { activity: string; index: number }[];
}

type Screen = { kind: "app"; packageName: string } | { kind: "home" } | { kind: "recents" };

/** `.Name` -> `<package>.Name`; a fully qualified name stays as it is. */
function qualify(packageName: string, activity: string): string {
  return activity.startsWith(".") ? packageName + activity : activity;
}

const navigationIndex = (page: Page): Promise<number> =>
  page.evaluate(() =>
    (globalThis as unknown as { navigation?: { currentEntry?: { index: number } } })
      .navigation?.currentEntry?.index ?? 0
  );

/**
 * The apps of one phone and what is on its screen. Methods change the screen without queueing:
 * the phone runs them one at a time.
 */
export class PhoneApps {
  #context: BrowserContext;
  #systemPage: Page;
  #installed = new Map<string, InstalledApp>();
  #running = new Map<string, RunningApp>();
  /** Running apps, most recent first. */
  #recents: string[] = [];
  #screen: Screen = { kind: "home" };
  #previous: Screen = { kind: "home" };

  /**
   * @param context the phone's browser context: each launched app gets a page in it.
   * @param systemPage the page of the home and recent-apps screens.
   * @param apps the installed apps (`VirtualPhoneOptions.apps`); the browser app is added.
   */
  constructor(
    context: BrowserContext,
    systemPage: Page,
    apps: Record<string, string | SimulatedApp>,
  ) {
    this.#context = context;
    this.#systemPage = systemPage;
    for (const [packageName, spec] of Object.entries(apps)) {
      const app = typeof spec === "string" ? { url: spec } : spec;
      this.#installed.set(packageName, {
        packageName,
        url: app.url,
        label: app.label ?? packageName.split(".").pop()!,
        activity: qualify(packageName, app.activity ?? ".MainActivity"),
        activities: new Map(
          Object.entries(app.activities ?? {}).map((
            [name, url],
          ) => [qualify(packageName, name), url]),
        ),
      });
    }
    this.#installed.set(BROWSER_PACKAGE, {
      packageName: BROWSER_PACKAGE,
      url: "about:blank",
      label: "Browser",
      activity: "com.google.android.apps.chrome.Main",
      activities: new Map(),
    });
  }

  /** The page now on screen: the foreground app's page, or the system page. */
  current(): Page {
    if (this.#screen.kind === "app") return this.#running.get(this.#screen.packageName)!.page;
    return this.#systemPage;
  }

  /** Installed packages, in installation order, the launcher first. */
  packages(): string[] {
    return [LAUNCHER_PACKAGE, ...this.#installed.keys()];
  }

  /** The launcher activity of an installed package; undefined when not installed. */
  activityOf(packageName: string): string | undefined {
    return packageName === LAUNCHER_PACKAGE
      ? LAUNCHER_ACTIVITY
      : this.#installed.get(packageName)?.activity;
  }

  /** The name an installed package shows on the home screen; undefined when not installed. */
  labelOf(packageName: string): string | undefined {
    return packageName === LAUNCHER_PACKAGE ? "Launcher" : this.#installed.get(packageName)?.label;
  }

  /** Every activity of an installed package, the launcher activity first. */
  activitiesOf(packageName: string): string[] {
    if (packageName === LAUNCHER_PACKAGE) return [LAUNCHER_ACTIVITY, RECENTS_ACTIVITY];
    const app = this.#installed.get(packageName);
    return app ? [app.activity, ...app.activities.keys()] : [];
  }

  /** Running apps, most recently used first. */
  runningApps(): string[] {
    return [...this.#recents];
  }

  /** The app in front and its top activity. */
  foregroundApp(): ForegroundApp {
    const screen = this.#screen;
    if (screen.kind === "app") {
      const app = this.#installed.get(screen.packageName)!;
      const stack = this.#running.get(screen.packageName)!.stack;
      return { packageName: app.packageName, activity: stack[stack.length - 1].activity };
    }
    return {
      packageName: LAUNCHER_PACKAGE,
      activity: screen.kind === "home" ? LAUNCHER_ACTIVITY : RECENTS_ACTIVITY,
    };
  }

  /**
   * Checks that an app can be launched with that activity, before the launch is recorded.
   *
   * @throws {ToolError} when the package is not installed or has no such activity.
   */
  checkLaunch(packageName: string, activity?: string): void {
    const app = this.#installed.get(packageName);
    if (!app) throw refused(`package ${packageName} is not installed`);
    const name = activity === undefined ? undefined : qualify(packageName, activity);
    if (name !== undefined && name !== app.activity && !app.activities.has(name)) {
      throw refused(`activity ${name} does not exist in ${packageName}`);
    }
  }

  /**
   * Brings an app to the front: starts its page when it is not running, opens `url` in it when
   * given, and starts `activity` on top of its history when it is not the launcher activity.
   *
   * @throws {ToolError} when the package is not installed, has no such activity, or its page did not
   * load.
   */
  async launch(packageName: string, url?: string, activity?: string): Promise<void> {
    const app = this.#installed.get(packageName);
    if (!app) throw refused(`package ${packageName} is not installed`);
    const started = activity === undefined ? undefined : qualify(packageName, activity);
    const startedUrl = started === undefined || started === app.activity
      ? undefined
      : app.activities.get(started);
    if (started !== undefined && started !== app.activity && startedUrl === undefined) {
      throw refused(`activity ${started} does not exist in ${packageName}`);
    }
    let entry = this.#running.get(packageName);
    if (entry && startedUrl !== undefined) {
      await entry.page.goto(startedUrl);
      entry.stack.push({ activity: started!, index: await navigationIndex(entry.page) });
    }
    if (!entry) {
      const page = await this.#context.newPage();
      let rootIndex: number;
      try {
        await page.goto(url ?? startedUrl ?? app.url);
        rootIndex = await navigationIndex(page);
      } catch (error) {
        await page.close().catch(() => {});
        throw refused(`the app ${packageName} did not load: ${(error as Error).message}`, error);
      }
      const first = startedUrl === undefined ? app.activity : started!;
      entry = { app, page, rootIndex, stack: [{ activity: first, index: rootIndex }] };
      this.#running.set(packageName, entry);
    } else if (url) {
      await entry.page.goto(url);
    }
    this.#recents = [packageName, ...this.#recents.filter((name) => name !== packageName)];
    await this.#show({ kind: "app", packageName });
  }

  /** Stops an app: its page closes and its state is lost; a no-op when it is not running. */
  async stop(packageName: string): Promise<void> {
    const entry = this.#running.get(packageName);
    if (!entry) return;
    this.#running.delete(packageName);
    this.#recents = this.#recents.filter((name) => name !== packageName);
    if (this.#screen.kind === "app" && this.#screen.packageName === packageName) {
      this.#screen = { kind: "home" };
      await this.#show({ kind: "home" });
    } else if (this.#screen.kind === "recents") {
      await this.#show({ kind: "recents" });
    }
    if (this.#previous.kind === "app" && this.#previous.packageName === packageName) {
      this.#previous = { kind: "home" };
    }
    await entry.page.close();
  }

  /** Stops every running app and shows the home screen (recents' "Clear all"). */
  async clearRecents(): Promise<void> {
    for (const name of [...this.#recents]) await this.stop(name);
    await this.#show({ kind: "home" });
  }

  /** Shows the home screen. */
  async home(): Promise<void> {
    await this.#show({ kind: "home" });
  }

  /** Shows recent apps, or, from recent apps, the screen shown before. */
  async toggleRecents(): Promise<void> {
    await this.#show(this.#screen.kind === "recents" ? this.#previous : { kind: "recents" });
  }

  /**
   * Back: hides the keyboard when it is up; otherwise leaves recent apps, or goes back in the
   * app's history, or at the app's first page moves the app to the background.
   */
  async back(): Promise<void> {
    if (await keyboardShown(this.current())) return await dismissKeyboard(this.current());
    const screen = this.#screen;
    if (screen.kind === "recents") {
      const previous = this.#previous;
      const target = previous.kind === "app" && this.#running.has(previous.packageName)
        ? previous
        : { kind: "home" as const };
      return await this.#show(target);
    }
    if (screen.kind === "home") return;
    const entry = this.#running.get(screen.packageName)!;
    const index = await navigationIndex(entry.page);
    if (index > entry.rootIndex) {
      await entry.page.goBack({ waitUntil: "commit" });
      const now = await navigationIndex(entry.page);
      while (entry.stack.length > 1 && entry.stack[entry.stack.length - 1].index > now) {
        entry.stack.pop();
      }
    } else {
      // Android 12 and later: back on a root activity moves its task to the background.
      await this.#show({ kind: "home" });
    }
  }

  #appsForUi(names: readonly string[]): SystemUiApp[] {
    return names.map((name) => this.#installed.get(name)!).map(({ packageName, label }) => ({
      packageName,
      label,
    }));
  }

  async #show(next: Screen): Promise<void> {
    const screen = this.#screen;
    if (
      next.kind !== screen.kind || (next.kind === "app" && screen.kind === "app" &&
        next.packageName !== screen.packageName)
    ) {
      this.#previous = screen;
    }
    this.#screen = next;
    if (next.kind === "home") {
      const apps = [...this.#installed.keys()].filter((name) => name !== BROWSER_PACKAGE);
      await this.#systemPage.setContent(launcherHtml(this.#appsForUi(apps)));
    } else if (next.kind === "recents") {
      await this.#systemPage.setContent(recentsHtml(this.#appsForUi(this.#recents)));
    }
    await this.current().bringToFront();
  }
}
