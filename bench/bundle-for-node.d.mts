export function bundleForNode(entry: string, outfile: string): Promise<string>;
