// The routes' own words: why one is recommended, what it installs when that is not the CUDA TF was
// built with, and which route a headless install took. Labels and names stay where they were
// (en.ts/zh.ts, redist.ts, bundle.ts); src/routes/* picks them.
import { en } from './en.js';
import { localized } from './localized.js';
import { zh } from './zh.js';
import { ROUTE_IDS, type RouteId } from '../routes/ids.js';

/** "a, b or c" in the run's language. */
const orList = (ids: readonly string[], or: string) => (ids.length > 1 ? `${ids.slice(0, -1).join(', ')} ${or} ${ids.at(-1)}` : ids.join(''));
/** Every route with its one-line summary, in the order of ROUTE_IDS: --route's help and its error's fix. */
const summaries = (s: Record<RouteId, string>, sep: string) => ROUTE_IDS.map((id) => `${id}${sep}${s[id]}`).join(sep === ': ' ? '; ' : '；');

const enRoutes = {
  /** What each route is, in one line (--route's help, a bad --route's fix). */
  summary: {
    redist: 'only the CUDA components TF loads, into a per-user folder, no administrator (TF 2.5+)',
    pip: 'tensorflow[and-cuda] in a virtual environment (Linux/WSL2, TF 2.14+)',
    toolkit: 'the CUDA installer and cuDNN in the system (an administrator)',
  } satisfies Record<RouteId, string>,
  badRoute: (value: string) => `--route must be ${orList(ROUTE_IDS, 'or')}, not "${value}".`,
  badRouteFix(): string {
    return `${summaries(this.summary, ': ')}.`;
  },
  installRoute(): string {
    return `without it, the route the wizard recommends (it says which and why); ${summaries(this.summary, ': ')}`;
  },
  whyRedist: 'Recommended: no administrator, and only the CUDA libraries TensorFlow loads, into a folder of your own.',
  whyPip: 'Recommended: pip brings CUDA and cuDNN into a virtual environment; nothing outside it changes.',
  whyToolkit: (tf: string) => `Recommended: the CUDA installer is the way TensorFlow ${tf} gets CUDA here.`,
  whyServedElsewhere: (tf: string, cuda: string) => `Recommended: TensorFlow ${tf} already loads CUDA ${cuda} on this machine, so the installer route brings only cuDNN.`,
  /** One line per route on the route screen: what it installs, then its download. */
  installs: (route: string, size: string, cuda: string | undefined) => `${route}: ${size}${cuda ? ` — installs CUDA ${cuda}` : ''}`,
  /** Under the routes where every plan will stop at its first step (no driver): what must come first. */
  allStop: (cause: string) => `Each route's plan stops at its first step, before anything changes, until this is fixed: ${cause}`,
  took: (route: string, why: string) => `Route: ${route}. ${why}`,
  others: (tf: string, others: string) => `Another route: ${others} (cudawiz requirements --tf ${tf} shows what each downloads).`,
};

const zhRoutes: typeof enRoutes = {
  summary: {
    redist: '只把 TF 加载的 CUDA 组件放进当前用户的文件夹，无需管理员权限（TF 2.5+）',
    pip: '在虚拟环境里装 tensorflow[and-cuda]（Linux/WSL2，TF 2.14+）',
    toolkit: '用 CUDA 安装程序把 CUDA 和 cuDNN 装进系统（需要管理员权限）',
  },
  badRoute: (value) => `--route 只能是 ${ROUTE_IDS.join('、')}，不能是 "${value}"。`,
  badRouteFix() {
    return `${summaries(this.summary, '：')}。`;
  },
  installRoute() {
    return `不指定时，采用向导推荐的方式（会说明是哪种、为什么）；${summaries(this.summary, '：')}`;
  },
  whyRedist: '推荐：无需管理员权限，只把 TensorFlow 加载的 CUDA 库放进你自己的文件夹。',
  whyPip: '推荐：pip 把 CUDA 和 cuDNN 装进虚拟环境，环境之外什么都不改。',
  whyToolkit: (tf) => `推荐：在这里，TensorFlow ${tf} 要通过 CUDA 安装程序获取 CUDA。`,
  whyServedElsewhere: (tf, cuda) => `推荐：这台机器上的 TensorFlow ${tf} 已能加载 CUDA ${cuda}，安装程序方式只需补上 cuDNN。`,
  installs: (route, size, cuda) => `${route}: ${size}${cuda ? `——安装 CUDA ${cuda}` : ''}`,
  allStop: (cause) => `先解决这个问题，否则每种方式的计划都会在第一步停下（那之前什么都不会改动）：${cause}`,
  took: (route, why) => `安装方式：${route}。${why}`,
  others: (tf, others) => `其他方式：${others}（cudawiz requirements --tf ${tf} 会列出每种方式要下载的文件）。`,
};

export const routesText = localized({ en: enRoutes, zh: zhRoutes });

/** The wizard's chrome (en.ts / zh.ts) in the run's language, for the route labels it holds. */
export const uiText = localized({ en, zh });
