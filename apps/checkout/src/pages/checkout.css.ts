/** The payer pages' only stylesheet (served at /assets/checkout.css; system fonts, no third-party requests). */
export const CHECKOUT_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:#1a1a1a;background:#f4f5f7}
body{margin:0;padding:0}
body.embedded{background:#fff;display:flow-root}
.checkout{max-width:40rem;margin:0 auto;padding:1rem;background:#fff}
body.hosted .checkout{margin:1.5rem auto;border-radius:.5rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
.merchant-name{margin:0;color:#444;font-weight:600;overflow-wrap:anywhere}
.test-banner{margin:0;padding:.5rem 1rem;background:#ffe08a;color:#3d2e00;text-align:center;font-size:.95rem}
.summary{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;align-items:baseline}
.amount .value{font-size:2rem;font-weight:700}
.label{display:block;font-size:.85rem;color:#4a4a4a;text-transform:uppercase;letter-spacing:.03em}
.countdown{font-variant-numeric:tabular-nums;font-size:1.25rem}
.memo-row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:.25rem 0}
.memo-value{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:2.5rem;font-weight:700;letter-spacing:.08em;padding:.25rem .75rem;background:#eef2ff;border:2px dashed #3b4cca;border-radius:.4rem;color:#10163f}
.button{font:inherit;font-weight:600;padding:.6rem 1.1rem;min-height:44px;border-radius:.4rem;border:2px solid #2b3aa8;background:#2b3aa8;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
.button:hover{background:#1f2b80}
.button:focus-visible,a:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
.help{color:#4a4a4a;font-size:.95rem;margin:.25rem 0}
.copy-status{min-height:1.5em;margin:.25rem 0;color:#14532d}
.recipient-email{font-size:1.2rem;font-weight:600;overflow-wrap:anywhere;margin:.25rem 0}
.warning{color:#7f1d1d;font-weight:600}
.steps ol{padding-left:1.5rem;margin:.25rem 0}
.steps li{margin:.25rem 0}
.bank-list{list-style:none;padding:0;margin:.5rem 0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem}
.bank{display:block;padding:.6rem .75rem;min-height:44px;border:1px solid #8a8fa3;border-radius:.4rem;color:#1d2a8a;text-decoration:none;font-weight:600;background:#fafbff}
.bank:hover{background:#eef2ff;text-decoration:underline}
.live-status{margin:1.25rem 0;padding:.75rem 1rem;border-radius:.4rem;background:#f0f4f8;font-weight:600}
.live-status.done{background:#dcfce7;color:#14532d}
.live-status.expired{background:#fee2e2;color:#7f1d1d}
.footer{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.75rem;margin-top:1.5rem;padding-top:1rem;border-top:1px solid #d4d7de}
.footer a{color:#1d2a8a}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
@media (max-width:30rem){.memo-value{font-size:2rem}.amount .value{font-size:1.75rem}.checkout{padding:.75rem}body.hosted .checkout{margin:0;border-radius:0}}
`;
