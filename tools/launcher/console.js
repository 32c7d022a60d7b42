// Progress lines for the launchers: one numbered step at a time, on stderr-free stdout.
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);

let stepNumber = 0;
module.exports = {
  step(title) {
    stepNumber += 1;
    console.log(paint('1;36', `==> [${stepNumber}] ${title}`));
  },
  info(text) {
    console.log(`    ${text}`);
  },
  warn(text) {
    console.log(paint('33', `    warning: ${text}`));
  },
  fail(text) {
    console.error(paint('1;31', `error: ${text}`));
  },
  paint,
};
