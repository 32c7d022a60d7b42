// Progress lines for the launchers, one numbered step at a time, on stderr: stdout stays for results (CLI JSON, service logs).
const useColor = process.stderr.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

let stepNumber = 0;
module.exports = {
  step(title) {
    stepNumber += 1;
    console.error(paint('1;36', `==> [${stepNumber}] ${title}`));
  },
  info(text) {
    console.error(`    ${text}`);
  },
  warn(text) {
    console.error(paint('33', `    warning: ${text}`));
  },
  fail(text) {
    console.error(paint('1;31', `error: ${text}`));
  },
  paint,
};
