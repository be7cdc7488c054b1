// The plan screen on an 80×24 terminal (#40.5, #39.6), in English and Chinese: a plan taller than the
// screen keeps its title and answers, shows a window of its rows with a line saying what is above
// and below, and ↓ scrolls it to the end before it moves to the answers; ↑ comes back. Lines wrap
// without "…", a path whole on one row. Ink draws into a stand-in terminal of that size.
import { afterEach, describe, expect, it } from 'vitest';
import { PlanScreen } from '../../components/PlanScreen.js';
import { UiContext } from '../../components/UiContext.js';
import { en } from '../../src/i18n/en.js';
import { setLang } from '../../src/i18n/localized.js';
import { zh } from '../../src/i18n/zh.js';
import type { RunnerState } from '../../src/plan/events.js';
import { displayWidth } from '../../src/wizard/fit-rows.js';
import { KEY, renderAt80x24, waitForFrame } from '../helpers/ink.js';

const PATH = '/home/someone/.local/share/cudawiz/cuda-root/cuda-12.5/lib64/libcudnn.so.9';
const preview = (lang: 'en' | 'zh'): RunnerState => ({
  steps: Array.from({ length: 12 }, (_, i) => ({
    id: `s${i}`,
    status: 'pending' as const,
    log: [],
    title: lang === 'en' ? `Step number ${i + 1} does a thing worth a long sentence about what it changes — writes ${PATH}` : `第 ${i + 1} 步做一件值得用长句说明的事，它会改动这个文件 — 写入 ${PATH}`,
  })),
});

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  setLang('en');
});

function draw(lang: 'en' | 'zh', events: string[]) {
  setLang(lang);
  const ui = renderAt80x24(
    <UiContext.Provider value={{ t: lang === 'en' ? en : zh, unicode: true }}>
      <PlanScreen tf="2.18.0" preview={preview(lang)} onConfirm={() => events.push('yes')} onBack={() => events.push('back')} onQuit={() => events.push('quit')} />
    </UiContext.Provider>,
  );
  unmount = ui.unmount;
  return { frame: ui.frame, stdin: ui.stdin };
}

describe('a plan taller than 80×24', () => {
  for (const lang of ['en', 'zh'] as const) {
    const w = lang === 'en' ? { title: 'The plan for TensorFlow 2.18.0', below: /↓ (\d+) more rows? · ↑\/↓ scroll the plan/, above: /↑ \d+ more rows?/, end: /↑ \d+ more rows? · ↑\/↓ scroll the plan/, last: /• 12\. /, no: /❯ No, go back/ } : { title: 'TensorFlow 2.18.0 的安装计划', below: /↓ 下面还有 (\d+) 行 · ↑\/↓ 滚动计划/, above: /↑ 上面还有 \d+ 行/, end: /↑ 上面还有 \d+ 行 · ↑\/↓ 滚动计划/, last: /• 12\. /, no: /❯ 否，返回/ };
    it(`scrolls under its title, then ↓ reaches the answers and ↑ comes back (${lang})`, async () => {
      const events: string[] = [];
      const { frame, stdin } = draw(lang, events);
      let f = await waitForFrame(frame, w.below);
      const rows = f.split('\n');
      // Within the terminal: 24 rows less the one Ink's cursor ends on, none wider than 80 columns.
      expect(rows.length).toBeLessThanOrEqual(23);
      for (const r of rows) expect(displayWidth(r), r).toBeLessThanOrEqual(80);
      expect(f).toContain(w.title);
      expect(f).not.toMatch(w.last);
      expect(f).not.toContain('…');
      expect(rows.filter((r) => r.includes(PATH)).length).toBeGreaterThan(0);
      let below = Number(w.below.exec(f)![1]);
      // ↓ scrolls row by row until nothing is below; the answer stays on Yes meanwhile.
      while (below > 0) {
        stdin.write(KEY.down);
        f = await waitForFrame(frame, below === 1 ? w.end : new RegExp(w.below.source.replace('(\\d+)', String(below - 1))));
        below--;
      }
      expect(f).toMatch(w.last);
      expect(f).toContain(w.title);
      expect(f).toMatch(/❯ (Yes, go ahead|是，开始)/);
      // At the end of the plan ↓ moves to the answers; ↑ goes back to Yes, then scrolls up again.
      stdin.write(KEY.down);
      await waitForFrame(frame, w.no);
      stdin.write(KEY.up);
      await waitForFrame(frame, /❯ (Yes, go ahead|是，开始)/);
      stdin.write(KEY.up);
      f = await waitForFrame(frame, new RegExp(w.below.source.replace('(\\d+)', '1')));
      stdin.write(KEY.enter);
      await waitForFrame(() => events.join(','), 'yes');
    });
  }
});

describe('a stop whose fix has several lines', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`draws each line at the fix's indent, within 80 columns (${lang})`, async () => {
      setLang(lang);
      const fix = lang === 'en' ? `Update the NVIDIA driver to 525.60.13 or newer from https://www.nvidia.com/Download/index.aspx (cudawiz never installs drivers)\nUpdate the display driver to 525.60.13 or newer, then reboot.\nNothing was changed.` : `从 https://www.nvidia.com/Download/index.aspx 把 NVIDIA 显卡驱动更新到 525.60.13 或更新（cudawiz 从不安装显卡驱动）\n从 https://www.nvidia.com/Download/index.aspx 把显卡驱动更新到 525.60.13 或更新，然后重启。\n什么都没有改动。`;
      const stopped: RunnerState = { steps: [{ id: 's0', status: 'pending', log: [], title: 'Stop' }], stop: { step: 's0', title: 'Stop', code: 'preflight-driver', message: 'NVIDIA driver 470.82.01 is too old', fix } };
      const ui = renderAt80x24(
        <UiContext.Provider value={{ t: lang === 'en' ? en : zh, unicode: true }}>
          <PlanScreen tf="2.15.0" preview={stopped} onConfirm={() => undefined} onBack={() => undefined} onQuit={() => undefined} />
        </UiContext.Provider>,
      );
      unmount = ui.unmount;
      const rows = (await waitForFrame(ui.frame, lang === 'en' ? 'Nothing was changed.' : '什么都没有改动。')).split('\n');
      const last = fix.split('\n').at(-1)!;
      // The last line whole on its row, at the fix's indent; no row of the fix starts at column 0.
      expect(rows).toContain(`    ${last}`);
      const from = rows.findIndex((r) => r.startsWith('  →'));
      for (const r of rows.slice(from + 1, rows.indexOf(`    ${last}`) + 1)) expect(r, r).toMatch(/^ {4}\S/);
      for (const r of rows) expect(displayWidth(r), r).toBeLessThanOrEqual(80);
    });
  }
});
